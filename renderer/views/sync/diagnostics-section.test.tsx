// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeError, type Diagnostics, diagnostics } from '../../../shared/bridge';
import { DiagnosticsSection, diagnosticsText } from './diagnostics-section';

afterEach(cleanup);

const report: Diagnostics = diagnostics.parse({
  versions: { app: '0.1.0', node: '22.1.0', electron: null, platform: 'linux', arch: 'x64' },
  dataDir: '/home/u/.worktray',
  logsDir: '/home/u/.worktray/logs',
  replicas: [{ name: 'r1.sqlite', bytes: 2_500_000 }],
  signedIn: true,
  outbox: { pending: 2, failed: 1, pendingByKind: { task: 2 } },
  lastErrors: ['task:12: Title is required'],
});

const noFeed = { updateFeed: async () => null, setUpdateFeed: async () => null };

describe('DiagnosticsSection', () => {
  it('opens the logs folder, or shows where it is when it cannot', async () => {
    const calls: string[] = [];
    render(
      <DiagnosticsSection
        actions={{
          openLogs: async () => {
            calls.push('open');
            return { path: '/home/u/.worktray/logs', opened: false };
          },
          diagnostics: async () => report,
          copy: async () => {},
          ...noFeed,
        }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Open logs folder' }));
    expect(calls).toEqual(['open']);
    expect(await screen.findByText(/\/home\/u\/\.worktray\/logs/)).toBeTruthy();
  });

  it('copies the diagnostics as text', async () => {
    const copied: string[] = [];
    render(
      <DiagnosticsSection
        actions={{
          openLogs: async () => ({ path: '', opened: true }),
          diagnostics: async () => report,
          copy: async (text) => {
            copied.push(text);
          },
          ...noFeed,
        }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Copy diagnostics' }));
    expect(await screen.findByText('Diagnostics copied')).toBeTruthy();
    expect(copied).toEqual([diagnosticsText(report)]);
    expect(copied[0]).toContain('Worktray 0.1.0');
    expect(copied[0]).toContain('r1.sqlite: 2.4 MB');
    expect(copied[0]).toContain('Outbox: 2 waiting (task 2), 1 failed');
    expect(copied[0]).toContain('task:12: Title is required');
  });

  it('Update feed: shows the saved one, saves another, says why one is refused, empty is off', async () => {
    const saved: (string | null)[] = [];
    render(
      <DiagnosticsSection
        actions={{
          openLogs: async () => ({ path: '', opened: true }),
          diagnostics: async () => report,
          copy: async () => {},
          updateFeed: async () => 'https://updates.example.com/old/',
          setUpdateFeed: async (url) => {
            if (url?.startsWith('http:'))
              throw new BridgeError({
                code: 'invalid-input',
                message:
                  'invalid input for settings.set: updateFeedUrl: must be an https:// address',
                fieldErrors: [{ field: 'updateFeedUrl', message: 'must be an https:// address' }],
              });
            saved.push(url);
            return url;
          },
        }}
      />,
    );
    const input = screen.getByLabelText('Update feed');
    await waitFor(() =>
      expect((input as HTMLInputElement).value).toBe('https://updates.example.com/old/'),
    );
    const save = screen.getByRole('button', { name: 'Save feed' });

    await userEvent.clear(input);
    await userEvent.type(input, 'http://updates.example.com/');
    await userEvent.click(save);
    expect(await screen.findByText('must be an https:// address')).toBeTruthy();
    expect(saved).toEqual([]);

    await userEvent.clear(input);
    await userEvent.type(input, ' https://updates.example.com/new/ ');
    await userEvent.click(save);
    expect(await screen.findByText(/Saved: the app checks this feed/)).toBeTruthy();

    await userEvent.clear(input);
    await userEvent.click(save);
    expect(await screen.findByText('Saved: updates are off')).toBeTruthy();
    expect(saved).toEqual(['https://updates.example.com/new/', null]);
  });
});
