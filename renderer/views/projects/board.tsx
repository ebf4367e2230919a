import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { type ReactNode, useState } from 'react';
import type { BridgeOutput, TaskRow } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { applyEdit } from '../../data/edits';
import { patchAll, useQuery } from '../../data/query';
import { formatDue, isPastDue } from '../../lib/dates';
import { initials, userName } from '../../lib/format';
import { baseStatuses, isDone, mergeNames, priorityClass } from '../../lib/vocab';
import { SyncMark } from '../../ui/sync-mark';
import {
  boardAnnouncements,
  boardInstructions,
  type CardData,
  type ColumnData,
  columnId,
  columnStep,
  nearestColumn,
} from './board-moves';

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
  void applyEdit(
    { kind: 'task.update', taskId, patch: { status } },
    { undoToast: `Moved to ${status}` },
  );
};

/** A card's face: the same in its column and under the pointer while it moves. */
function CardFace({ task }: { task: TaskRow }) {
  return (
    <>
      <span className="card-title">{task.taskTitle}</span>
      <span className="row card-meta">
        {task.priority && task.priority !== 'None' ? (
          <span className={priorityClass(task.priority)}>{task.priority}</span>
        ) : null}
        {task.dueDate ? (
          <span
            className={`muted${!isDone(task.status) && isPastDue(task.dueDate) ? ' is-overdue' : ''}`}
          >
            {formatDue(task.dueDate)}
          </span>
        ) : null}
        <span className="grow" />
        <SyncMark sync={task.sync} />
        {(task.owners ?? []).slice(0, 2).map((o) => (
          <span key={o.userId} className="avatar" title={userName(o)}>
            {initials(o)}
          </span>
        ))}
      </span>
    </>
  );
}

function BoardCard(props: {
  task: TaskRow;
  status: string | null;
  headingId: string;
  selected: boolean;
  /** Alt+←/→: the status one column over, if there is one. */
  neighbour: (step: -1 | 1) => string | null;
  onMove: (status: string) => void;
}) {
  const { task } = props;
  const data: CardData = { title: task.taskTitle, status: props.status };
  const drag = useDraggable({
    id: task.taskId,
    data,
    attributes: { roleDescription: 'card' },
  });
  return (
    <li
      ref={drag.setNodeRef}
      className={`card-task${props.selected ? ' is-selected' : ''}${drag.isDragging ? ' is-dragging' : ''}`}
      data-task-id={task.taskId}
    >
      <button
        ref={drag.setActivatorNodeRef}
        type="button"
        className="card-open"
        {...drag.attributes}
        {...drag.listeners}
        aria-describedby={`${drag.attributes['aria-describedby']} ${props.headingId}`}
        onClick={() => useApp.getState().openTask(task.taskId)}
        onKeyDown={(e) => {
          if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
            const next = props.neighbour(e.key === 'ArrowLeft' ? -1 : 1);
            if (next) {
              e.preventDefault();
              props.onMove(next);
            }
            return;
          }
          drag.listeners?.onKeyDown?.(e);
        }}
      >
        <CardFace task={task} />
      </button>
    </li>
  );
}

function BoardColumn(props: {
  status: string | null;
  count: number;
  index: number;
  children: ReactNode;
}) {
  const drop = useDroppable({
    id: columnId(props.status ?? ''),
    data: { status: props.status ?? '' } satisfies ColumnData,
    disabled: !props.status,
  });
  const headingId = `col-${props.index}`;
  return (
    <section
      ref={drop.setNodeRef}
      className={`board-col${drop.isOver ? ' is-over' : ''}`}
      aria-labelledby={headingId}
    >
      <header className="board-head">
        <h2 id={headingId}>{props.status ?? 'No status'}</h2>
        <span className="muted">{props.count}</span>
      </header>
      <ul className="board-cards">{props.children}</ul>
    </section>
  );
}

/**
 * A project's tasks in columns by status. A card moves to another column by pointer drag, by
 * the keyboard (Space, arrows, Space; dnd-kit says each step to screen readers) or Alt+←/→;
 * every move is one status edit.
 */
export function BoardView({ projectId }: { projectId: number }) {
  const q = useQuery('projects.board', { projectId });
  const openId = useApp((s) => s.openTaskId);
  const [dragged, setDragged] = useState<TaskRow | null>(null);
  const [announcements] = useState(boardAnnouncements);
  const sensors = useSensors(
    // A few pixels of travel before a press becomes a drag: a click still opens the task.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: columnStep,
      // Enter stays the button's: it opens the task.
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );
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
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const from = (active.data.current as CardData | undefined)?.status;
    const to = (over?.data.current as ColumnData | undefined)?.status;
    if (to && to !== from) move(projectId, Number(active.id), to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={nearestColumn}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: boardInstructions },
      }}
      onDragStart={({ active }) =>
        setDragged(
          columns.flatMap((c) => c.tasks).find((t) => t.taskId === Number(active.id)) ?? null,
        )
      }
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragged(null)}
    >
      <div className="board">
        {columns.map((col, ci) => (
          <BoardColumn key={col.status ?? 'none'} status={col.status} count={col.count} index={ci}>
            {col.tasks.map((t) => (
              <BoardCard
                key={t.taskId}
                task={t}
                status={col.status}
                headingId={`col-${ci}`}
                selected={openId === t.taskId}
                neighbour={(step) => columns[ci + step]?.status ?? null}
                onMove={(status) => move(projectId, t.taskId, status)}
              />
            ))}
            {col.count > col.tasks.length ? (
              <li className="muted more">+{col.count - col.tasks.length} more in the list</li>
            ) : null}
          </BoardColumn>
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {dragged ? (
          <div className="card-task card-open is-lifted" aria-hidden="true">
            <CardFace task={dragged} />
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
