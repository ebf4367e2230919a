import { Fragment, memo, useCallback, useEffect, useState } from 'react';
import type { UserRef } from '../../../shared/api/common';
import type { AttachmentRow, BridgeFailedEdit, TaskPath } from '../../../shared/bridge';
import type { EditCommand } from '../../../shared/edits/commands';
import { useApp } from '../../data/app-store';
import { bridge } from '../../data/bridge';
import { applyEdit } from '../../data/edits';
import { useQuery } from '../../data/query';
import { ago, formatMoment } from '../../lib/dates';
import { userName } from '../../lib/format';
import { isDone, statusClass } from '../../lib/vocab';
import { useShortcut } from '../../shortcuts/keys';
import { Button, IconButton } from '../../ui/button';
import { ConfirmDialog } from '../../ui/dialog';
import { IconPlus, IconTrash, IconX } from '../../ui/icons';
import { SyncMark } from '../../ui/sync-mark';
import { toast } from '../../ui/toast';
import { FailedEditRow } from '../sync/sync-panel';
import { followPath, pathParts } from '../tasks/task-path';
import { toggleDone } from '../tasks/task-row';
import { TimerControls } from '../timers/timer-controls';
import { Attachments } from './attachments';
import { Checklist } from './checklist';
import { mentionParts } from './mentions';
import { DescriptionField, TaskProperties, TitleField } from './task-fields';
import { MissingTask } from './task-missing';

const edit = (cmd: EditCommand) => void applyEdit(cmd);

// The detail's sections skip a render when their part of the task did not change: a checklist
// toggle (and the re-reads after it) renders the checklist, not the whole task.
const TitleFieldM = memo(TitleField);
const DescriptionFieldM = memo(DescriptionField);
const TaskPropertiesM = memo(TaskProperties);
const ChecklistM = memo(Checklist);
const AttachmentsM = memo(Attachments);
const TimerControlsM = memo(TimerControls);
const noFields: never[] = [];
const noUsers: never[] = [];
const openLater = (a: AttachmentRow) => void openAttachment(a);

async function openAttachment(a: AttachmentRow) {
  try {
    const file = await bridge().invoke('attachments.open', { attachmentId: a.attachmentId });
    // In Electron the host opens it with the system's app; in browser mode the page does.
    if (!file.openedByHost) window.open(file.url ?? `file://${file.path}`, '_blank', 'noopener');
    // A type the host does not open itself (a program, a script, an archive…): the user decides.
    if (file.shownInFolder)
      toast(`${file.fileName} is shown in its folder: Worktray opens only documents and images`);
    if (file.source === 'cache') toast(`Opened ${file.fileName} from the offline copy`);
  } catch (error) {
    toast(
      `Could not open ${a.fileName}: ${error instanceof Error ? error.message : error}`,
      'error',
    );
  }
}

/** One task, every field editable in place; opens beside the list. */
export function TaskDetail({ taskId }: { taskId: number }) {
  const detail = useQuery('tasks.detail', { taskId });
  const users = useQuery('users.list', {});
  const task = detail.data?.task;
  const fields = useQuery(
    'customFields.forScope',
    task?.projectId ? { projectId: task.projectId } : {},
    Boolean(task),
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [titleRef, titleHidden] = useScrolledAway();
  const patch = useCallback(
    (p: Extract<EditCommand, { kind: 'task.update' }>['patch']) =>
      edit({ kind: 'task.update', taskId, patch: p }),
    [taskId],
  );
  const close = () => useApp.getState().openTask(null);
  useShortcut('close', close);
  useShortcut('timer', () => {
    const open = [...(detail.data?.timers ?? [])].reverse().find((t) => t.state !== 'STOPPED');
    edit(open ? { kind: 'timer.stop', trackId: open.trackId } : { kind: 'timer.start', taskId });
  });

  if (detail.loading && !detail.data) {
    return (
      <aside className="detail padded" aria-label="Task" aria-busy="true">
        <div className="skeleton" style={{ width: '70%', height: 18 }} />
      </aside>
    );
  }
  if (!task) return <MissingTask onClose={close} />;
  const d = detail.data!;
  const userList = users.data?.users ?? noUsers;

  return (
    <aside className="detail" aria-label={`Task: ${task.taskTitle}`}>
      <div className="detail-head">
        <span className={statusClass(task.status)}>{task.status ?? 'No status'}</span>
        <SyncMark sync={task.sync} />
        {/* The title stays in sight while the body scrolls (adding checklist items, files). */}
        <span className="grow ellipsis detail-head-title" aria-hidden="true">
          {titleHidden ? task.taskTitle : ''}
        </span>
        <Button
          size="sm"
          variant={isDone(task.status) ? 'secondary' : 'primary'}
          onClick={() => void toggleDone(task)}
        >
          {isDone(task.status) ? 'Reopen' : 'Complete'}
        </Button>
        <IconButton
          label="Delete task"
          icon={<IconTrash />}
          onClick={() => setConfirmDelete(true)}
        />
        <IconButton label="Close task" icon={<IconX />} onClick={close} />
      </div>
      <div className="detail-body">
        {d.failedEdits.length ? (
          <div className="failed-box" role="alert">
            <strong>Some changes to this task did not reach the server</strong>
            <ul className="failed-list">
              {d.failedEdits.map((f: BridgeFailedEdit) => (
                <FailedEditRow key={f.mutationId} edit={f} />
              ))}
            </ul>
          </div>
        ) : null}
        <div ref={titleRef}>
          <TaskPathNav path={d.path} />
          <TitleFieldM task={task} onPatch={patch} />
        </div>
        <p className="muted meta">
          {task.createdBy ? `Created by ${userName(task.createdBy)}` : 'Created'}
          {task.createdTime ? ` · ${formatMoment(task.createdTime)}` : ''}
          {task.modifiedTime ? ` · edited ${ago(Date.parse(task.modifiedTime))}` : ''}
        </p>
        <DescriptionFieldM task={task} onPatch={patch} />
        <TaskPropertiesM
          task={task}
          users={userList}
          customFields={task.projectId ? (fields.data?.fields ?? noFields) : noFields}
          onPatch={patch}
        />
        <Subtasks parentId={task.taskId} subtasks={d.subtasks} />
        <ChecklistM taskId={task.taskId} items={d.checklist} users={userList} onEdit={edit} />
        <AttachmentsM
          taskId={task.taskId}
          items={d.attachments}
          onEdit={applyEdit}
          onOpen={openLater}
        />
        <TimerControlsM taskId={task.taskId} timers={d.timers} onEdit={edit} />
        <Comments taskId={task.taskId} people={userList} />
      </div>
      <ConfirmDialog
        open={confirmDelete}
        title="Delete this task?"
        message={`“${task.taskTitle}” and its subtasks, checklist and files will be deleted.`}
        confirmLabel="Delete task"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          void applyEdit(
            { kind: 'task.delete', taskId: task.taskId },
            { undoToast: `Deleted “${task.taskTitle}”` },
          );
          close();
        }}
      />
    </aside>
  );
}

const Subtasks = memo(function Subtasks({
  parentId,
  subtasks,
}: {
  parentId: number;
  subtasks: readonly import('../../../shared/bridge').TaskRow[];
}) {
  const [draft, setDraft] = useState('');
  return (
    <section className="section" aria-labelledby="subtasks-h">
      <div className="section-head">
        <h3 id="subtasks-h">Subtasks</h3>
        {subtasks.length ? (
          <span className="muted">
            {subtasks.filter((s) => isDone(s.status)).length}/{subtasks.length}
          </span>
        ) : null}
      </div>
      <ul className="subtasks">
        {subtasks.map((s) => (
          <li key={s.taskId} className="row subtask" data-task-id={s.taskId}>
            <input
              type="checkbox"
              className="check"
              checked={isDone(s.status)}
              aria-label={isDone(s.status) ? `Reopen ${s.taskTitle}` : `Complete ${s.taskTitle}`}
              onChange={() => void toggleDone(s)}
            />
            <button
              type="button"
              className="link grow ellipsis"
              onClick={() => useApp.getState().openTask(s.taskId)}
            >
              {s.taskTitle}
            </button>
            <SyncMark sync={s.sync} />
          </li>
        ))}
      </ul>
      <form
        className="row add-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (!draft.trim()) return;
          edit({
            kind: 'task.create',
            parentTaskId: parentId,
            fields: { taskTitle: draft.trim() },
          });
          setDraft('');
        }}
      >
        <input
          className="input grow"
          aria-label="New subtask"
          placeholder="Add a subtask…"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <IconButton
          label="Add subtask"
          icon={<IconPlus />}
          type="submit"
          disabled={!draft.trim()}
        />
      </form>
    </section>
  );
});

/** Space › Project › parent task, each a way there (the task stays open beside it). */
const TaskPathNav = memo(function TaskPathNav({ path }: { path: TaskPath }) {
  return (
    <nav className="task-path" aria-label="Where this task is">
      <ol>
        {pathParts(path).map((p) => (
          <li key={p.kind}>
            <button type="button" className="link ellipsis" onClick={() => followPath(p)}>
              {p.label}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
});

/** A comment's text, its mentions by the person's name (the email they were written with on hover). */
function CommentText({ text, people }: { text: string; people: readonly UserRef[] }) {
  return (
    <p>
      {mentionParts(text, people).map((part, i) =>
        'text' in part ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
          <Fragment key={i}>{part.text}</Fragment>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order
          <span key={i} className="mention" title={part.written.slice(1)}>
            @{userName(part.mention)}
          </span>
        ),
      )}
    </p>
  );
}

const Comments = memo(function Comments({
  taskId,
  people,
}: {
  taskId: number;
  people: readonly UserRef[];
}) {
  const q = useQuery('comments.list', { taskId });
  return (
    <section className="section" aria-labelledby="comments-h">
      <div className="section-head">
        <h3 id="comments-h">Comments</h3>
        {q.data?.source === 'cache' ? (
          <span className="muted" title={q.data.offlineReason}>
            offline copy · {ago(q.data.fetchedAt)}
          </span>
        ) : null}
      </div>
      {q.loading && !q.data ? (
        <div className="stack" role="status" aria-busy="true" aria-label="Loading comments">
          <div className="skeleton" style={{ width: '80%' }} />
          <div className="skeleton" style={{ width: '60%' }} />
        </div>
      ) : q.error && !q.data ? (
        <p className="muted">
          Comments are not available offline for this task yet. They load when you are back online.
        </p>
      ) : q.data?.items.length ? (
        <ul className="comments">
          {q.data.items.map((c) => (
            <li key={c.commentId} className="comment">
              <div className="row">
                <strong>{c.createdBy ? userName(c.createdBy) : 'Someone'}</strong>
                <span className="muted">{ago(Date.parse(c.createdTime))}</span>
              </div>
              <CommentText text={c.content} people={people} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No comments yet.</p>
      )}
    </section>
  );
});

/** A ref for an element, and whether it has scrolled out of its pane's view. */
function useScrolledAway(): [(el: Element | null) => void, boolean] {
  const [el, setEl] = useState<Element | null>(null);
  const [away, setAway] = useState(false);
  useEffect(() => {
    if (!el) return;
    const observer = new IntersectionObserver(([e]) => setAway(e ? !e.isIntersecting : false));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, away];
}
