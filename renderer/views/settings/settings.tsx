import { useEffect, useId, useState } from 'react';
import {
  type NotificationKind,
  notificationKinds,
  type Settings as SettingsRecord,
} from '../../../shared/bridge';
import { saveSettings, useApp } from '../../data/app-store';
import { ago } from '../../lib/dates';
import { ShortcutList } from '../../shortcuts/help-sheet';
import { shortcuts, showCombo } from '../../shortcuts/keys';
import { DataFolder, GlobalShortcut, isDesktop, refusalText, SettingRow } from './settings-parts';
import '../../styles/settings.css';

type Patch = Partial<SettingsRecord>;

/**
 * Shows a patch at once and saves it. A refusal puts the saved record back (the host changed
 * nothing) and keeps its words by section, shown beside the control that made it.
 */
function useSave() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = async (section: string, patch: Patch) => {
    const before = useApp.getState().settings;
    if (before) useApp.setState({ settings: { ...before, ...patch } });
    try {
      await saveSettings(patch);
      setErrors(({ [section]: _, ...rest }) => rest);
    } catch (e) {
      useApp.setState({ settings: before });
      setErrors((all) => ({ ...all, [section]: `Not saved: ${refusalText(e)}` }));
    }
  };
  return { errors, save };
}

const themes = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const;

function ThemeChoice({
  value,
  onChange,
}: {
  value: SettingsRecord['theme'];
  onChange: (t: SettingsRecord['theme']) => void;
}) {
  const name = useId();
  return (
    <fieldset className="segmented settings-segmented">
      <legend className="sr-only">Theme</legend>
      {themes.map((t) => (
        <label key={t.value} className={value === t.value ? 'is-on' : undefined}>
          <input
            type="radio"
            className="settings-radio"
            name={name}
            value={t.value}
            checked={value === t.value}
            onChange={() => onChange(t.value)}
          />
          {t.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A select over a few numbers; a value set elsewhere (by hand, an older version) is kept. */
function NumberChoice({
  id,
  value,
  choices,
  words,
  onChange,
}: {
  id: string;
  value: number;
  choices: readonly number[];
  words: (n: number) => string;
  onChange: (n: number) => void;
}) {
  const list = choices.includes(value) ? choices : [...choices, value].sort((a, b) => a - b);
  return (
    <select
      id={id}
      className="input select"
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
    >
      {list.map((n) => (
        <option key={n} value={n}>
          {words(n)}
        </option>
      ))}
    </select>
  );
}

const INTERVALS = [15, 30, 60, 120, 300, 900, 1_800, 3_600];

/** "Every 30 seconds", "Every 5 minutes", "Every hour". */
export const everyWords = (seconds: number): string => {
  if (seconds < 60 || seconds % 60 !== 0) return `Every ${seconds} seconds`;
  const minutes = seconds / 60;
  if (minutes === 60) return 'Every hour';
  return minutes === 1 ? 'Every minute' : `Every ${minutes} minutes`;
};

const KIND_LABELS: Record<NotificationKind, string> = {
  MENTION: 'Mentions of me',
  ASSIGNED: 'Tasks assigned to me',
  COMMENT: 'Comments on my tasks',
  DUE: 'Due date reminders',
  STATUS: 'Status changes',
};

function Notifications({
  value,
  error,
  save,
}: {
  value: SettingsRecord;
  error: string | undefined;
  save: (patch: Patch) => void;
}) {
  const on = value.nativeNotifications;
  const toggleKind = (kind: NotificationKind, checked: boolean) =>
    save({
      // The table's order, whatever the clicks' order: the file and the record stay stable.
      notifyKinds: notificationKinds.filter((k) =>
        k === kind ? checked : value.notifyKinds.includes(k),
      ),
    });
  const id = useId();
  return (
    <>
      <SettingRow
        title="Desktop notifications"
        labelFor={`${id}-on`}
        error={error}
        hint={
          isDesktop()
            ? 'New activity from the server, one notification per sync. Clicking it opens the task.'
            : 'Shown by the desktop app. In the browser, new activity waits in the Inbox.'
        }
      >
        <input
          id={`${id}-on`}
          type="checkbox"
          className="check"
          checked={on}
          onChange={(e) => save({ nativeNotifications: e.target.checked })}
        />
      </SettingRow>
      <fieldset className="settings-kinds" disabled={!on}>
        <legend className="settings-title">Notify me about</legend>
        <div className="settings-kind-grid">
          {notificationKinds.map((kind) => (
            <label key={kind} className="row">
              <input
                type="checkbox"
                className="check"
                checked={value.notifyKinds.includes(kind)}
                onChange={(e) => toggleKind(kind, e.target.checked)}
              />
              {KIND_LABELS[kind]}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}

const IDLE_CHOICES = [2, 5, 10, 15, 30, 60];

function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** Theme, sync, notifications, the timer, the data folder and the keyboard, each applied at once. */
export function Settings() {
  const value = useApp((s) => s.settings);
  const lastSyncAt = useApp((s) => s.sync?.lastSyncAt ?? null);
  const { errors, save } = useSave();
  const ids = useId();
  const [, tick] = useState(0);
  // "Last synced 2 minutes ago" keeps true while the page stays open.
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 30_000);
    return () => clearInterval(t);
  }, []);
  if (!value) return <div className="main" aria-busy="true" />;
  return (
    <div className="main">
      <div className="toolbar">
        <h1>Settings</h1>
      </div>
      <div className="content padded">
        <div className="settings">
          <Section id={`${ids}-look`} title="Appearance">
            <SettingRow
              title="Theme"
              hint="System follows your computer’s light or dark mode."
              error={errors.theme}
            >
              <ThemeChoice value={value.theme} onChange={(theme) => save('theme', { theme })} />
            </SettingRow>
          </Section>

          <Section id={`${ids}-sync`} title="Sync">
            <SettingRow
              title="Check the server for changes"
              labelFor={`${ids}-interval`}
              error={errors.sync}
              hint={
                <>
                  Your own edits are sent at once whatever this says.
                  {lastSyncAt ? ` Last synced ${ago(lastSyncAt)}.` : ''}
                </>
              }
            >
              <NumberChoice
                id={`${ids}-interval`}
                value={value.syncIntervalSeconds}
                choices={INTERVALS}
                words={everyWords}
                onChange={(syncIntervalSeconds) => save('sync', { syncIntervalSeconds })}
              />
            </SettingRow>
          </Section>

          <Section id={`${ids}-notify`} title="Notifications">
            <Notifications
              value={value}
              error={errors.notify}
              save={(patch) => void save('notify', patch)}
            />
          </Section>

          <Section id={`${ids}-timer`} title="Timer">
            <SettingRow
              title="Ask about time away after"
              labelFor={`${ids}-idle`}
              error={errors.idle}
              hint="With a timer running, the desktop app asks whether to keep time you were away."
            >
              <NumberChoice
                id={`${ids}-idle`}
                value={value.idleMinutes}
                choices={IDLE_CHOICES}
                words={(m) => (m === 60 ? '1 hour' : `${m} minutes`)}
                onChange={(idleMinutes) => save('idle', { idleMinutes })}
              />
            </SettingRow>
            <GlobalShortcut
              value={value.globalShortcut}
              error={errors.shortcut}
              save={(globalShortcut) => save('shortcut', { globalShortcut })}
            />
          </Section>

          <Section id={`${ids}-data`} title="Data">
            <DataFolder />
          </Section>

          <Section id={`${ids}-keys`} title="Keyboard shortcuts">
            <p className="settings-note">
              Press <kbd>{showCombo(shortcuts.help.combo)}</kbd> anywhere to see these.
            </p>
            <ShortcutList />
          </Section>
        </div>
      </div>
    </div>
  );
}
