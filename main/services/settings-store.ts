import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  defaultSettings,
  type Settings,
  settings as settingsSchema,
} from '../../shared/bridge/settings';

/**
 * Settings as JSON in the data dir. On load each key is validated on its own: a bad or
 * unknown key (a hand edit, an older or newer version) falls back to its default and the
 * rest is kept, so one bad value never resets everything or stops the app.
 */
export class SettingsStore {
  private current: Settings = defaultSettings;

  private constructor(
    private readonly file: string,
    readonly problems: readonly string[],
  ) {}

  static async load(file: string): Promise<SettingsStore> {
    const problems: string[] = [];
    let stored: Record<string, unknown> = {};
    try {
      const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw))
        stored = raw as Record<string, unknown>;
      else problems.push('settings file is not a JSON object: defaults used');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        problems.push(`settings file unreadable (${(e as Error).message}): defaults used`);
    }
    const store = new SettingsStore(file, problems);
    const merged: Record<string, unknown> = { ...defaultSettings };
    for (const [key, value] of Object.entries(stored)) {
      const field = settingsSchema.shape[key as keyof Settings];
      if (!field) {
        problems.push(`unknown setting ${key} ignored`);
        continue;
      }
      const parsed = field.safeParse(value);
      if (parsed.success) merged[key] = parsed.data;
      else
        problems.push(`setting ${key} invalid (${parsed.error.issues[0]?.message}): default used`);
    }
    store.current = settingsSchema.parse(merged);
    return store;
  }

  get(): Settings {
    return this.current;
  }

  /** Applies an already validated patch and writes the file (atomically: tmp + rename). */
  async set(patch: Partial<Settings>): Promise<Settings> {
    const next = settingsSchema.parse({ ...this.current, ...patch });
    await mkdir(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, 'utf8');
    await rename(tmp, this.file);
    this.current = next;
    return next;
  }
}
