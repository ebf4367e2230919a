import { useEffect, useState } from 'react';
import { type BridgeOutput, type Diagnostics, isBridgeError } from '../../../shared/bridge';
import { bridge } from '../../data/bridge';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';

export interface DiagnosticsActions {
  openLogs: () => Promise<BridgeOutput<'app.openLogsFolder'>>;
  diagnostics: () => Promise<Diagnostics>;
  copy: (text: string) => Promise<void>;
  /** The update feed in settings (null: updates off). */
  updateFeed: () => Promise<string | null>;
  setUpdateFeed: (url: string | null) => Promise<string | null>;
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;

/** The report as plain text for a bug report (it holds no token: the host leaves them out). */
export const diagnosticsText = (d: Diagnostics): string => {
  const v = d.versions;
  const byKind = d.outbox
    ? Object.entries(d.outbox.pendingByKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')
    : '';
  return [
    `Worktray ${v.app} (${v.electron ? `Electron ${v.electron}, ` : ''}Node ${v.node}, ${v.platform} ${v.arch})`,
    `Data folder: ${d.dataDir}`,
    `Logs folder: ${d.logsDir}`,
    `Replicas: ${d.replicas.length === 0 ? 'none' : ''}`,
    ...d.replicas.map((r) => `  ${r.name}: ${size(r.bytes)}`),
    d.outbox
      ? `Outbox: ${d.outbox.pending} waiting${byKind ? ` (${byKind})` : ''}, ${d.outbox.failed} failed`
      : 'Outbox: signed out',
    `Last errors: ${d.lastErrors.length === 0 ? 'none' : ''}`,
    ...d.lastErrors.map((e) => `  ${e}`),
  ].join('\n');
};

/** "Open logs folder" and "Copy diagnostics": what a user needs to report a problem. */
export function DiagnosticsSection({ actions }: { actions: DiagnosticsActions }) {
  const [note, setNote] = useState<string | null>(null);
  const run = (work: () => Promise<string | null>) => {
    work()
      .then(setNote)
      .catch((e: unknown) => setNote(e instanceof Error ? e.message : String(e)));
  };
  return (
    <section className="section" aria-labelledby="sync-diagnostics-h">
      <div className="section-head">
        <h2 id="sync-diagnostics-h">Troubleshooting</h2>
      </div>
      <div className="row">
        <Button
          onClick={() =>
            run(async () => {
              const r = await actions.openLogs();
              return r.opened ? null : `The logs are in ${r.path}`;
            })
          }
        >
          Open logs folder
        </Button>
        <Button
          onClick={() =>
            run(async () => {
              await actions.copy(diagnosticsText(await actions.diagnostics()));
              return 'Diagnostics copied';
            })
          }
        >
          Copy diagnostics
        </Button>
      </div>
      {note ? <p className="muted">{note}</p> : null}
      <UpdateFeed actions={actions} />
    </section>
  );
}

/** Where the desktop app looks for updates; "Check for updates" is in its Help and tray menus. */
function UpdateFeed({ actions }: { actions: DiagnosticsActions }) {
  const [feed, setFeed] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    actions
      .updateFeed()
      .then((url) => setFeed(url ?? ''))
      .catch(() => {});
  }, [actions]);
  const save = () => {
    setError(null);
    setSaved(null);
    actions
      .setUpdateFeed(feed.trim() || null)
      .then((url) => {
        setFeed(url ?? '');
        setSaved(
          url
            ? 'Saved: the app checks this feed at launch and on "Check for updates"'
            : 'Saved: updates are off',
        );
      })
      .catch((e: unknown) =>
        setError(
          (isBridgeError(e) ? e.fieldErrors?.[0]?.message : null) ??
            (e instanceof Error ? e.message : String(e)),
        ),
      );
  };
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <TextField
        label="Update feed"
        type="url"
        placeholder="https://updates.example.com/worktray/"
        value={feed}
        onChange={(e) => setFeed(e.target.value)}
        error={error}
        hint={saved ?? 'Desktop app only; empty: no update checks'}
      />
      <Button type="submit">Save feed</Button>
    </form>
  );
}

export const diagnosticsActions: DiagnosticsActions = {
  openLogs: () => bridge().invoke('app.openLogsFolder', {}),
  diagnostics: () => bridge().invoke('app.diagnostics', {}),
  copy: (text) => navigator.clipboard.writeText(text),
  updateFeed: async () => (await bridge().invoke('settings.get', {})).updateFeedUrl,
  setUpdateFeed: async (url) =>
    (await bridge().invoke('settings.set', { updateFeedUrl: url })).updateFeedUrl,
};
