import { useEffect, useState } from 'react';
import { useApp } from '../../data/app-store';
import { useQuery } from '../../data/query';
import { isDone } from '../../lib/vocab';

/** Full-text search over the replica's index: works offline, answers as you type. */
export function SearchView({ text: initial }: { text: string }) {
  const [text, setText] = useState(initial);
  const [query, setQuery] = useState(initial);
  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), 120);
    return () => clearTimeout(t);
  }, [text]);
  const q = useQuery('tasks.search', { text: query, limit: 100 }, query.length > 0);
  const hits = q.data?.hits ?? [];
  return (
    <div className="main">
      <div className="toolbar">
        <h1>Search</h1>
        <input
          className="input search-input"
          type="search"
          aria-label="Search tasks"
          placeholder="Words in titles and descriptions"
          value={text}
          // biome-ignore lint/a11y/noAutofocus: the user opened search to type
          autoFocus
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="content">
        {!query ? (
          <div className="empty">
            <strong>Search every task</strong>
            <span>The index lives on this computer, so search works offline.</span>
          </div>
        ) : hits.length === 0 && !q.loading ? (
          <div className="empty">
            <strong>No tasks match “{query}”</strong>
            <span>Try fewer or different words.</span>
          </div>
        ) : (
          <ul className="hits" aria-label="Results">
            {hits.map((h) => (
              <li key={h.taskId}>
                <button
                  type="button"
                  className="hit"
                  onClick={() => useApp.getState().openTask(h.taskId)}
                >
                  <span className={`hit-title${isDone(h.status) || h.completed ? ' is-done' : ''}`}>
                    {h.title}
                  </span>
                  <span className="muted hit-snippet">
                    {h.segments.map((s, i) =>
                      // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity but their place
                      s.hit ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>,
                    )}
                  </span>
                  <span className="muted">{h.projectName ?? 'Personal'}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
