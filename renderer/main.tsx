import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { prefetchTaskList } from './data/task-pages';
import './styles/theme.css';
import './styles/app.css';
import './styles/views.css';

// The first view is My tasks: its first rows are asked for now, while React and the session load.
prefetchTaskList({ scope: { kind: 'my' }, filter: {}, sort: [] });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
