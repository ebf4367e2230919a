import { useEffect, useId, useState } from 'react';
import { isBridgeError } from '../../../shared/bridge';
import { bridge } from '../../data/bridge';
import { bytes } from '../../lib/format';
import { Button } from '../../ui/button';

/** The host's words for a refused value ("must be at least 10 seconds"), else its message. */
export const refusalText = (e: unknown): string =>
  (isBridgeError(e) ? e.fieldErrors?.[0]?.message : null) ??
  (e instanceof Error ? e.message : String(e));

/** The desktop app (its preload is there); browser mode has no file manager or tray. */
export const isDesktop = () => typeof window !== 'undefined' && window.worktray !== undefined;

/** One setting: what it is and what it does on the left, its control on the right. */
export function SettingRow({
  title,
  hint,
  error,
  labelFor,
  children,
}: {
  title: string;
  hint?: React.ReactNode;
  error?: string | undefined;
  /** The control's id, so the title is its label; without it the control names itself. */
  labelFor?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="settings-row">
      <div className="settings-text">
        {labelFor ? (
          <label className="settings-title" htmlFor={labelFor}>
            {title}
          </label>
        ) : (
          <div className="settings-title">{title}</div>
        )}
        {hint ? <div className="settings-hint">{hint}</div> : null}
        {error ? (
          <div className="field-error" role="alert">
            {error}
          </div>
        ) : null}
      </div>
      <div className="settings-control">{children}</div>
    </div>
  );
}

/**
 * Where the replica lives. The desktop opens the folder in the file manager; a page in a
 * browser cannot, so it offers the path to copy.
 */
export function DataFolder() {
  const [folder, setFolder] = useState<{ path: string; bytes: number } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    bridge()
      .invoke('app.diagnostics', {})
      .then((d) => {
        if (live)
          setFolder({ path: d.dataDir, bytes: d.replicas.reduce((n, r) => n + r.bytes, 0) });
      })
      .catch((e: unknown) => setNote(refusalText(e)));
    return () => {
      live = false;
    };
  }, []);
  const show = async () => {
    try {
      const r = await bridge().invoke('app.openDataFolder', {});
      setNote(r.opened ? null : 'The file manager could not be opened: copy the path instead.');
    } catch (e) {
      setNote(refusalText(e));
    }
  };
  const copy = async () => {
    if (!folder) return;
    try {
      await navigator.clipboard.writeText(folder.path);
      setNote('Path copied');
    } catch {
      setNote('Copying is not allowed here: select the path and copy it.');
    }
  };
  return (
    <SettingRow
      title="Data folder"
      hint={
        <>
          <span className="settings-path mono" data-testid="data-folder">
            {folder?.path ?? '…'}
          </span>
          <span>
            Your settings, the offline copy of each organization and edits not yet sent
            {folder ? ` (${bytes(folder.bytes)} on disk)` : ''}.
          </span>
          {note ? <span role="status">{note}</span> : null}
        </>
      }
    >
      <div className="row">
        {isDesktop() ? (
          <Button size="sm" onClick={() => void show()} disabled={!folder}>
            Show in file manager
          </Button>
        ) : null}
        <Button size="sm" onClick={() => void copy()} disabled={!folder}>
          Copy path
        </Button>
      </div>
    </SettingRow>
  );
}

/** The desktop's global shortcut for the last task's timer; empty: none. */
export function GlobalShortcut({
  value,
  error,
  save,
}: {
  value: string | null;
  error: string | undefined;
  save: (shortcut: string | null) => Promise<void>;
}) {
  const [draft, setDraft] = useState(value ?? '');
  const id = useId();
  useEffect(() => setDraft(value ?? ''), [value]);
  const changed = draft.trim() !== (value ?? '');
  return (
    <SettingRow
      title="Start or stop the timer from anywhere"
      labelFor={id}
      error={error}
      hint="Desktop app only, even while its window is hidden. Empty: no shortcut."
    >
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void save(draft.trim() || null);
        }}
      >
        <input
          id={id}
          className="input settings-shortcut mono"
          value={draft}
          placeholder="CommandOrControl+Alt+T"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button size="sm" type="submit" disabled={!changed}>
          Save
        </Button>
      </form>
    </SettingRow>
  );
}
