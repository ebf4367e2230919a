import { useEffect, useId, useMemo, useRef } from 'react';
import type { UserRef } from '../../../shared/api/common';
import type { SyncChange, SyncChangeKind } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { bridge } from '../../data/bridge';
import { useQuery } from '../../data/query';
import { resolveChange, seeChanges } from '../../data/sync-changes';
import { valueWords } from '../../lib/change-values';
import { ago } from '../../lib/dates';
import { Button } from '../../ui/button';
import { useToasts } from '../../ui/toast';

export interface ChangeActions {
  keepTheirs: (changeId: number) => void;
  restoreMine: (changeId: number) => void;
  openTask: (taskId: number) => void;
}

type People = ReadonlyMap<number, UserRef>;

const kindWords: Record<SyncChangeKind, { label: string; tone: string }> = {
  overwritten: { label: 'Overwritten', tone: 'pill-warn' },
  failed: { label: 'Refused', tone: 'pill-danger' },
  conflict: { label: 'Conflict', tone: 'pill-warn' },
  deleted: { label: 'Deleted', tone: 'pill-danger' },
  adopted: { label: 'Matched', tone: 'pill-accent' },
};

const unnamed: Readonly<Record<string, string>> = {
  task: 'A task',
  checklist: 'A checklist item',
  project: 'A project',
  space: 'A space',
  attachment: 'A file',
  timer: 'A time entry',
};

/** Why "Restore mine" cannot be done, said where the disabled button is. */
const cannotRestore = (c: SyncChange): string => {
  switch (c.kind) {
    case 'overwritten':
      return c.field === null
        ? 'Only one field at a time can be put back.'
        : 'It was deleted since, so your value has nowhere to go.';
    case 'failed':
    case 'conflict':
      return 'Your edit was discarded already.';
    case 'deleted':
      return 'Its last state was not kept, so it cannot be made again.';
    case 'adopted':
      return 'Nothing to restore: the copy on the server is the one you made.';
  }
};

function Value({ label, words }: { label: string; words: { text: string; full: string | null } }) {
  return (
    <div className="change-value">
      <dt>{label}</dt>
      <dd title={words.full ?? undefined}>{words.text}</dd>
    </div>
  );
}

export function ChangeItem({
  change: c,
  actions,
  users,
  now,
}: {
  change: SyncChange;
  actions: ChangeActions;
  users: People;
  now?: number;
}) {
  const reasonId = useId();
  const item = useRef<HTMLLIElement>(null);
  const acted = useRef(false);
  // The button the user pressed goes when the row settles: focus stays on the row, not the page.
  useEffect(() => {
    if (c.settled && acted.current) {
      acted.current = false;
      item.current?.focus();
    }
  }, [c.settled]);
  const act = (run: (changeId: number) => void) => () => {
    acted.current = true;
    run(c.changeId);
  };
  const kind = kindWords[c.kind];
  const name = c.name ?? unnamed[c.entityKind] ?? 'An item';
  // A deleted task's id names nothing any more (restoring makes a new one).
  const taskId = c.kind === 'deleted' ? null : c.taskId;
  const when = ago(c.at ?? c.createdAt, now === undefined ? undefined : { now });
  const who = c.by ? `by ${c.by.name ?? 'someone else'}, ${when}` : when;
  const ctx = { field: c.field, users };
  return (
    <li
      ref={item}
      tabIndex={-1}
      className={`change-item${c.settled ? ' is-settled' : ''}`}
      data-change-id={c.changeId}
      data-kind={c.kind}
      data-settled={c.settled}
    >
      <div className="row change-head">
        <span className={`pill ${c.settled ? '' : kind.tone}`}>{kind.label}</span>
        <span className="grow change-title">
          {taskId !== null ? (
            <button
              type="button"
              className="link change-name"
              onClick={() => actions.openTask(taskId)}
            >
              {name}
            </button>
          ) : (
            <strong className="change-name">{name}</strong>
          )}
          {c.fieldLabel ? <span className="muted"> · {c.fieldLabel}</span> : null}
        </span>
        <span className="muted change-when">{who}</span>
      </div>
      {c.fieldLabel !== null ? (
        <dl className="change-values">
          <Value label="Yours:" words={valueWords(c.mine, ctx)} />
          <Value label="Theirs:" words={valueWords(c.theirs, ctx)} />
        </dl>
      ) : null}
      <p className="failed-msg">{c.message}</p>
      <div className="row change-actions">
        {c.settled ? (
          <span className="pill">Settled</span>
        ) : c.kind === 'adopted' ? (
          // The server's copy is the user's own: there is no "theirs" to keep, only to note.
          <Button size="sm" onClick={act(actions.keepTheirs)}>
            Got it
          </Button>
        ) : (
          <>
            <Button size="sm" onClick={act(actions.keepTheirs)}>
              Keep theirs
            </Button>
            <Button
              size="sm"
              variant="primary"
              disabled={!c.canRestore}
              aria-describedby={c.canRestore ? undefined : reasonId}
              onClick={act(actions.restoreMine)}
            >
              Restore mine
            </Button>
          </>
        )}
        {taskId !== null ? (
          <Button size="sm" variant="ghost" onClick={() => actions.openTask(taskId)}>
            Open
          </Button>
        ) : null}
        {!c.settled && !c.canRestore && c.kind !== 'adopted' ? (
          <span id={reasonId} className="muted change-reason">
            {cannotRestore(c)}
          </span>
        ) : null}
      </div>
    </li>
  );
}

/** The list as it looks for its changes, newest first (the bridge's order); actions handed in. */
export function SyncChangesSection({
  changes,
  actions,
  users = new Map(),
  error = null,
  now,
}: {
  changes: readonly SyncChange[] | undefined;
  actions: ChangeActions;
  users?: People;
  error?: string | null;
  now?: number;
}) {
  const open = changes?.filter((c) => !c.settled).length ?? 0;
  return (
    <section className="section" aria-labelledby="sync-changes-h">
      <div className="section-head">
        <h2 id="sync-changes-h">Changes from sync</h2>
        <span className="muted" data-testid="changes-count">
          {changes === undefined ? '' : open ? `${open} to review` : 'Nothing to review'}
        </span>
      </div>
      {error ? (
        <p className="muted" role="status">
          The list could not be read: {error}
        </p>
      ) : changes === undefined ? (
        <p className="muted">Reading the list…</p>
      ) : changes.length === 0 ? (
        <p className="muted">
          Nothing changed your work while syncing. When someone else's change wins over yours, it
          shows here.
        </p>
      ) : (
        <ul className="change-list" aria-label="Changes from sync">
          {changes.map((c) => (
            <ChangeItem key={c.changeId} change={c} actions={actions} users={users} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

export const changeActions: ChangeActions = {
  keepTheirs: (changeId) => void resolveChange(changeId, 'keepTheirs'),
  restoreMine: (changeId) => void resolveChange(changeId, 'restoreMine'),
  openTask: (taskId) => useApp.getState().openTask(taskId),
};

/**
 * The list in the Sync view. Being on the view is having looked at it: the badge goes when it
 * opens and stays gone while new changes arrive under the user's eyes.
 */
export function SyncChanges() {
  const changes = useQuery('sync.changes', {});
  const users = useQuery('users.list', {});
  const people = useMemo(
    () => new Map((users.data?.users ?? []).map((u) => [u.userId, u] as const)),
    [users.data],
  );
  useEffect(() => {
    void seeChanges();
    return bridge().on('sync.changesGrew', () => void seeChanges());
  }, []);
  return (
    <SyncChangesSection
      changes={changes.data?.changes}
      actions={changeActions}
      users={people}
      error={changes.data === undefined ? (changes.error?.message ?? null) : null}
    />
  );
}

/**
 * A toast when a sync changed the user's work while they are elsewhere; on the Sync view the
 * list itself shows it.
 */
export function useSyncChangesToast() {
  useEffect(() => {
    // One toast with the latest count, not one per sync.
    let shown: number | null = null;
    return bridge().on('sync.changesGrew', ({ unseen }) => {
      if (unseen === 0 || useApp.getState().route.view === 'sync') return;
      const toasts = useToasts.getState();
      if (shown !== null) toasts.dismiss(shown);
      shown = toasts.push(
        {
          tone: 'info',
          message: `Sync changed ${unseen} of your edits`,
          action: { label: 'Review', run: () => useApp.getState().go({ view: 'sync' }) },
        },
        // Longer than a plain notice: it asks the user to look at something.
        10_000,
      );
    });
  }, []);
}
