import { useState } from 'react';
import type { BridgeOutput, TaskRow } from '../../shared/bridge';
import { useApp } from '../data/app-store';
import { applyEdit } from '../data/edits';
import { patchAll, useQuery } from '../data/query';
import { formatDue } from '../lib/dates';
import { initials, userName } from '../lib/format';
import { baseStatuses, mergeNames, priorityClass } from '../lib/vocab';
import { SyncMark } from '../ui/sync-mark';

type Board = BridgeOutput<'projects.board'>;

/** The board with a card moved to another column, for the frame before the host answers. */
export function moveCard(board: Board, taskId: number, status: string): Board {
  let card: TaskRow | undefined;
  const columns = board.columns.map((c) => {
    const found = c.tasks.find((t) => t.taskId === taskId);
    if (!found) return c;
    card = found;
    return { ...c, count: c.count - 1, tasks: c.tasks.filter((t) => t.taskId !== taskId) };
  });
  if (!card) return board;
  const moved: TaskRow = { ...card, status, sync: 'pending' };
  const target = columns.find((c) => c.status === status);
  return {
    ...board,
    columns: target
      ? columns.map((c) =>
          c === target ? { ...c, count: c.count + 1, tasks: [...c.tasks, moved] } : c,
        )
      : [...columns, { status, count: 1, completed: 0, tasks: [moved] }],
  };
}

const move = (projectId: number, taskId: number, status: string) => {
  patchAll((method, data) =>
    method === 'projects.board' && (data as Board).projectId === projectId
      ? moveCard(data as Board, taskId, status)
      : data,
  );
  void applyEdit({ kind: 'task.update', taskId, patch: { status } });
};

/** A project's tasks in columns by status; drag a card (or Alt+←/→) to change its status. */
export function BoardView({ projectId }: { projectId: number }) {
  const q = useQuery('projects.board', { projectId });
  const [over, setOver] = useState<string | null>(null);
  const openId = useApp((s) => s.openTaskId);
  const board = q.data;
  const statuses = mergeNames(
    baseStatuses,
    (board?.columns ?? []).map((c) => c.status),
  );
  const columns = statuses.map(
    (s) =>
      board?.columns.find((c) => c.status === s) ?? {
        status: s,
        count: 0,
        completed: 0,
        tasks: [] as TaskRow[],
      },
  );
  if (q.error && !board) {
    return (
      <div className="empty" role="alert">
        <strong>The board could not be read</strong>
        <span>{q.error.message}</span>
      </div>
    );
  }
  return (
    <div className="board">
      {columns.map((col, ci) => (
        <section
          key={col.status ?? 'none'}
          className={`board-col${over === col.status ? ' is-over' : ''}`}
          aria-labelledby={`col-${ci}`}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(col.status);
          }}
          onDragLeave={() => setOver(null)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(null);
            const id = Number(e.dataTransfer.getData('text/x-task-id'));
            if (id && col.status) move(projectId, id, col.status);
          }}
        >
          <header className="board-head">
            <h2 id={`col-${ci}`}>{col.status ?? 'No status'}</h2>
            <span className="muted">{col.count}</span>
          </header>
          <ul className="board-cards">
            {col.tasks.map((t) => (
              <li
                key={t.taskId}
                className={`card-task${openId === t.taskId ? ' is-selected' : ''}`}
                data-task-id={t.taskId}
                draggable
                onDragStart={(e) => {
                  e.dataTransfer.setData('text/x-task-id', String(t.taskId));
                  e.dataTransfer.effectAllowed = 'move';
                }}
              >
                <button
                  type="button"
                  className="card-open"
                  aria-describedby={`col-${ci}`}
                  onClick={() => useApp.getState().openTask(t.taskId)}
                  onKeyDown={(e) => {
                    if (!e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
                    const next = columns[ci + (e.key === 'ArrowLeft' ? -1 : 1)];
                    if (next?.status) {
                      e.preventDefault();
                      move(projectId, t.taskId, next.status);
                    }
                  }}
                >
                  <span className="card-title">{t.taskTitle}</span>
                  <span className="row card-meta">
                    {t.priority && t.priority !== 'None' ? (
                      <span className={priorityClass(t.priority)}>{t.priority}</span>
                    ) : null}
                    {t.dueDate ? (
                      <span className={`muted${t.overdue ? ' is-overdue' : ''}`}>
                        {formatDue(t.dueDate)}
                      </span>
                    ) : null}
                    <span className="grow" />
                    <SyncMark sync={t.sync} />
                    {(t.owners ?? []).slice(0, 2).map((o) => (
                      <span key={o.userId} className="avatar" title={userName(o)}>
                        {initials(o)}
                      </span>
                    ))}
                  </span>
                </button>
              </li>
            ))}
            {col.count > col.tasks.length ? (
              <li className="muted more">+{col.count - col.tasks.length} more in the list</li>
            ) : null}
          </ul>
        </section>
      ))}
    </div>
  );
}
