import type { BridgeFailedEdit, SyncStatus } from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { bridge } from '../../data/bridge';
import { refreshAll } from '../../data/query';
import { ago, formatTime } from '../../lib/dates';
import { editKindWords } from '../../lib/edit-words';
import { Button } from '../../ui/button';
import { toast } from '../../ui/toast';
import { DiagnosticsSection, diagnosticsActions } from './diagnostics-section';
import { SyncChanges } from './sync-changes';

export interface SyncActions {
  retry: (mutationId: number) => void;
  discard: (mutationId: number) => void;
  resolve: (mutationId: number, choice: 'recreate' | 'discard') => void;
  syncNow: () => void;
  pause: () => void;
  resume: () => void;
  dismissNotice: (noticeId: number) => void;
}

const entityWords = (key: string) => {
  const [kind = '', id = ''] = key.split(':');
  return Number(id) < 0 ? `new ${kind} (not yet on the server)` : `${kind} #${id}`;
};

/** One failed or conflicting edit: what, why (the server's words), and what the user can do. */
export function FailedEditItem({
  edit,
  actions,
}: {
  edit: BridgeFailedEdit;
  actions: Pick<SyncActions, 'retry' | 'discard' | 'resolve'>;
}) {
  const conflict = edit.state === 'conflict';
  return (
    <li className="failed-item" data-mutation-id={edit.mutationId} data-state={edit.state}>
      <div className="row">
        <span className={`pill ${conflict ? 'pill-warn' : 'pill-danger'}`}>
          {conflict ? 'Conflict' : 'Failed'}
        </span>
        <strong className="grow">
          {editKindWords(edit.kind)}: {entityWords(edit.entity)}
        </strong>
        <span className="muted">{ago(edit.updatedAt)}</span>
      </div>
      <p className="failed-msg">
        {edit.error?.message ??
          (conflict
            ? 'It was deleted on the server while you edited it.'
            : 'The server refused this change.')}
        {edit.error?.status ? <span className="muted"> (HTTP {edit.error.status})</span> : null}
      </p>
      {edit.error?.fieldErrors?.length ? (
        <ul className="muted field-errors">
          {edit.error.fieldErrors.map((f) => (
            <li key={f.field}>
              {f.field}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="row">
        {conflict ? (
          <>
            <Button
              size="sm"
              variant="primary"
              onClick={() => actions.resolve(edit.mutationId, 'recreate')}
            >
              Recreate it
            </Button>
            <Button size="sm" onClick={() => actions.resolve(edit.mutationId, 'discard')}>
              Discard my change
            </Button>
          </>
        ) : (
          <>
            <Button size="sm" onClick={() => actions.retry(edit.mutationId)}>
              Retry
            </Button>
            <Button size="sm" variant="danger" onClick={() => actions.discard(edit.mutationId)}>
              Discard
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

/** The sync panel as it looks for a status; actions are handed in (the bridge in the app). */
export function SyncPanelView({
  status,
  actions,
  now = Date.now(),
  changes = null,
}: {
  status: SyncStatus | null;
  actions: SyncActions;
  now?: number;
  /** The "Changes from sync" section, after what needs the user's attention. */
  changes?: React.ReactNode;
}) {
  if (!status) {
    return (
      <div className="empty">
        <strong>Not signed in</strong>
        <span>Sign in to sync your work.</span>
      </div>
    );
  }
  const kinds = Object.entries(status.pendingByKind).filter(([, n]) => n > 0);
  const state = status.needsSignIn
    ? { label: 'Sign in again', tone: 'pill-danger' }
    : !status.online
      ? { label: 'Offline', tone: 'pill-warn' }
      : status.paused
        ? { label: 'Paused', tone: 'pill-warn' }
        : status.activity !== 'idle'
          ? {
              label: status.activity === 'pulling' ? 'Receiving…' : 'Sending…',
              tone: 'pill-accent',
            }
          : { label: 'Online', tone: 'pill-ok' };
  return (
    <div className="sync-panel stack">
      <section className="section" aria-labelledby="sync-state-h">
        <div className="section-head">
          <h2 id="sync-state-h">Connection</h2>
        </div>
        <div className="row">
          <span className={`pill ${state.tone}`} data-testid="sync-state">
            {state.label}
          </span>
          <span className="muted">
            Last synced {ago(status.lastSyncAt, { now })}
            {status.nextRetryAt && status.nextRetryAt > now
              ? ` · next try at ${formatTime(status.nextRetryAt)}`
              : ''}
          </span>
          <span className="grow" />
          {status.paused ? (
            <Button size="sm" onClick={actions.resume}>
              Resume sync
            </Button>
          ) : (
            <Button size="sm" variant="ghost" onClick={actions.pause}>
              Pause sync
            </Button>
          )}
          <Button size="sm" onClick={actions.syncNow} disabled={status.paused}>
            Sync now
          </Button>
        </div>
        {status.lastError ? (
          <p className="muted" role="status">
            {status.online
              ? status.lastError
              : `${status.lastError}. Your edits are kept and will be sent when the server is reachable.`}
          </p>
        ) : null}
      </section>
      <section className="section" aria-labelledby="sync-pending-h">
        <div className="section-head">
          <h2 id="sync-pending-h">Waiting to send</h2>
          <span className="muted" data-testid="pending-count">
            {status.pending === 0
              ? 'Everything is sent'
              : `${status.pending} edit${status.pending === 1 ? '' : 's'}`}
          </span>
        </div>
        {kinds.length ? (
          <ul className="kinds" aria-label="Pending edits by kind">
            {kinds.map(([k, n]) => (
              <li key={k} className="row">
                <span className="grow">{editKindWords(k)}</span>
                <span className="pill">{n}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section className="section" aria-labelledby="sync-failed-h">
        <div className="section-head">
          <h2 id="sync-failed-h">Needs your attention</h2>
          <span className="muted">{status.failed.length + status.notices.length || 'Nothing'}</span>
        </div>
        {status.failed.length ? (
          <ul className="failed-list" aria-label="Failed edits">
            {status.failed.map((f) => (
              <FailedEditItem key={f.mutationId} edit={f} actions={actions} />
            ))}
          </ul>
        ) : (
          <p className="muted">No failed edits.</p>
        )}
        {status.notices.length ? (
          <ul className="failed-list" aria-label="Sent, but check">
            {status.notices.map((n) => (
              <li key={n.noticeId} className="failed-item" data-notice-id={n.noticeId}>
                <div className="row">
                  <span className="pill pill-warn">Check</span>
                  <span className="grow" />
                  <span className="muted">{ago(n.createdAt, { now })}</span>
                </div>
                <p className="failed-msg">{n.message}</p>
                <div className="row">
                  <Button size="sm" onClick={() => actions.dismissNotice(n.noticeId)}>
                    Got it
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {changes}
    </div>
  );
}

const run = async (what: string, call: () => Promise<SyncStatus>) => {
  try {
    useApp.setState({ sync: await call() });
    refreshAll();
  } catch (error) {
    toast(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
};

export const syncActions: SyncActions = {
  retry: (mutationId) => void run('Retry', () => bridge().invoke('sync.retry', { mutationId })),
  discard: (mutationId) =>
    void run('Discard', () => bridge().invoke('sync.discard', { mutationId })),
  resolve: (mutationId, choice) =>
    void run('Resolving the conflict', () =>
      bridge().invoke('sync.resolveConflict', { mutationId, choice }),
    ),
  syncNow: () => void run('Sync', () => bridge().invoke('sync.now', {})),
  pause: () => void run('Pause', () => bridge().invoke('sync.pause', {})),
  resume: () => void run('Resume', () => bridge().invoke('sync.resume', {})),
  dismissNotice: (noticeId) =>
    void run('Dismissing the notice', () => bridge().invoke('sync.dismissNotice', { noticeId })),
};

export function FailedEditRow({ edit }: { edit: BridgeFailedEdit }) {
  return <FailedEditItem edit={edit} actions={syncActions} />;
}

export function SyncPanel() {
  const status = useApp((s) => s.sync);
  return (
    <div className="main">
      <div className="toolbar">
        <h1>Sync</h1>
      </div>
      <div className="content padded">
        <SyncPanelView status={status} actions={syncActions} changes={<SyncChanges />} />
        <DiagnosticsSection actions={diagnosticsActions} />
      </div>
    </div>
  );
}
