// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  diagnostics,
  type Settings as SettingsRecord,
} from '../../../shared/bridge';
import { useApp } from '../../data/app-store';
import { everyWords, Settings } from './settings';

afterEach(cleanup);

/** The host behind the preload seam: the settings it keeps and every set it was asked for. */
const host = { settings: defaultSettings as SettingsRecord, sets: [] as unknown[], refuse: false };
beforeAll(() => {
  window.worktray = {
    invoke: async (method: string, input: unknown) => {
      if (method === 'app.diagnostics')
        return {
          ok: true,
          value: diagnostics.parse({
            versions: { app: '1', node: '22', electron: null, platform: 'linux', arch: 'x64' },
            dataDir: '/home/u/.worktray',
            logsDir: '/home/u/.worktray/logs',
            replicas: [{ name: 'r.sqlite', bytes: 3 * 1024 * 1024 }],
            signedIn: true,
            outbox: null,
            lastErrors: [],
          }),
        };
      if (method === 'settings.set') {
        host.sets.push(input);
        if (host.refuse)
          return {
            ok: false,
            error: {
              code: 'invalid-input',
              message: 'invalid input',
              fieldErrors: [
                { field: 'syncIntervalSeconds', message: 'must be at least 10 seconds' },
              ],
            },
          };
        host.settings = { ...host.settings, ...(input as Partial<SettingsRecord>) };
        return { ok: true, value: host.settings };
      }
      return { ok: false, error: { code: 'internal', message: method } };
    },
    on: () => () => undefined,
  };
});
beforeEach(() => {
  host.settings = defaultSettings;
  host.sets = [];
  host.refuse = false;
  useApp.setState({ settings: defaultSettings, sync: null });
});

const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 20)));

describe('Settings', () => {
  it('shows a choice at once and saves it', async () => {
    render(<Settings />);
    await userEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(useApp.getState().settings?.theme).toBe('dark');
    await settle();
    expect(host.sets).toEqual([{ theme: 'dark' }]);
    await userEvent.selectOptions(screen.getByLabelText('Check the server for changes'), '300');
    await settle();
    expect(host.sets.at(-1)).toEqual({ syncIntervalSeconds: 300 });
    expect(useApp.getState().settings?.syncIntervalSeconds).toBe(300);
    expect(await screen.findByText('/home/u/.worktray')).toBeTruthy();
    expect(screen.getByText(/3\.0 MB on disk/)).toBeTruthy();
  });

  it('a value the host refuses goes back, and the words say why beside the control', async () => {
    render(<Settings />);
    host.refuse = true;
    await userEvent.selectOptions(screen.getByLabelText('Check the server for changes'), '15');
    await settle();
    expect(useApp.getState().settings?.syncIntervalSeconds).toBe(30);
    expect(screen.getByRole('alert').textContent).toBe('Not saved: must be at least 10 seconds');
    host.refuse = false;
    await userEvent.selectOptions(screen.getByLabelText('Check the server for changes'), '60');
    await settle();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a shortcut the contract refuses never reaches the host and says so', async () => {
    render(<Settings />);
    const field = screen.getByLabelText('Start or stop the timer from anywhere');
    await userEvent.clear(field);
    await userEvent.type(field, 'Ctrl+Shift+!');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(host.sets).toEqual([]);
    expect(screen.getByRole('alert').textContent).toMatch(
      /must look like CommandOrControl\+Alt\+T/,
    );
    expect(useApp.getState().settings?.globalShortcut).toBe(defaultSettings.globalShortcut);
  });

  it('says intervals in words', () => {
    expect([15, 60, 300, 3_600, 90].map(everyWords)).toEqual([
      'Every 15 seconds',
      'Every minute',
      'Every 5 minutes',
      'Every hour',
      'Every 90 seconds',
    ]);
  });
});
