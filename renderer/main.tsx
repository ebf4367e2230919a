import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { useApp } from './data/app-store';
import { prefetchTaskList } from './data/task-pages';
import './styles/theme.css';
import './styles/app.css';
import './styles/views.css';

// The first view is My tasks: its first rows are asked for now, while React and the session
// load; only when this window was signed in last time (signed out, the host refuses the read
// and the console shows a 401).
const SIGNED_IN = 'worktray.signedIn';
if (localStorage.getItem(SIGNED_IN))
  prefetchTaskList({ scope: { kind: 'my' }, filter: {}, sort: [] });
useApp.subscribe(({ session }) => {
  if (session?.signedIn) localStorage.setItem(SIGNED_IN, '1');
  else if (session) localStorage.removeItem(SIGNED_IN);
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
