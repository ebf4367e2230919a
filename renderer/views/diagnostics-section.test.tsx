// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type Diagnostics, diagnostics } from '../../shared/bridge';
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
});
