import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../shared/bridge';
import { type TraySync, traySyncFrom } from './sync-line';
import type { TrayTimerState } from './timer-state';
import { buildTrayView, type TrayItem, trayMenuKey } from './tray-menu';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const synced: TraySync = { online: true, paused: false, needsSignIn: false, pending: 0, failed: 0 };
const running: TrayTimerState = {
  signedIn: true,
  active: {
    trackId: 501,
    taskId: 11,
    taskTitle: 'Write notes',
    state: 'RUNNING' as const,
    durationSeconds: 60,
  },
  recent: [],
  observedAt: T0,
};
const idle: TrayTimerState = { ...running, active: null };

const outline = (items: TrayItem[]) =>
  items.map((i) =>
    i.type === 'separator'
      ? '---'
      : i.type === 'action'
        ? `[${i.label}] ${i.action.kind}${'view' in i.action ? ` ${i.action.view}` : ''}`
        : i.label,
  );
/** The menu's lines between the timer block and the footer. */
const syncLines = (sync: TraySync | null, state = running) => {
  const lines = outline(buildTrayView(state, T0, sync).items);
  const end = lines.indexOf('[Open Worktray] open-app') - 1;
  const start = lines.lastIndexOf('---', end - 1) + 1;
  return lines.slice(start, end);
};

describe('the tray menu: sync state beside the timer', () => {
  it('all synced', () => {
    expect(syncLines(synced)).toEqual(['All synced']);
  });

  it('edits waiting, one or many', () => {
    expect(syncLines({ ...synced, pending: 3 })).toEqual(['3 edits waiting']);
    expect(syncLines({ ...synced, pending: 1 })).toEqual(['1 edit waiting']);
  });

  it('offline, with and without edits waiting', () => {
    expect(syncLines({ ...synced, online: false, pending: 3 })).toEqual([
      'Offline — 3 edits waiting',
    ]);
    expect(syncLines({ ...synced, online: false })).toEqual(['Offline']);
  });

  it('failed edits: an item that opens the Sync view', () => {
    expect(syncLines({ ...synced, failed: 1 })).toEqual([
      '[1 edit failed — open Sync] open-view sync',
    ]);
    expect(syncLines({ ...synced, online: false, pending: 2, failed: 3 })).toEqual([
      'Offline — 2 edits waiting',
      '[3 edits failed — open Sync] open-view sync',
    ]);
  });

  it('paused sync and a lost sign-in say so', () => {
    expect(syncLines({ ...synced, paused: true, pending: 2 })).toEqual([
      'Sync paused — 2 edits waiting',
    ]);
    expect(syncLines({ ...synced, needsSignIn: true })).toEqual(['Sign in again to sync']);
  });

  it('shows beside no timer too, and not at all without a status', () => {
    expect(syncLines({ ...synced, pending: 2 }, idle)).toEqual(['2 edits waiting']);
    expect(outline(buildTrayView(running, T0, null).items)).not.toContain('All synced');
    expect(outline(buildTrayView(running, T0).items)).toEqual(
      outline(buildTrayView(running, T0, null).items),
    );
  });

  it('a change of sync state changes the menu key', () => {
    expect(trayMenuKey(running, synced)).not.toBe(trayMenuKey(running, { ...synced, pending: 1 }));
    expect(trayMenuKey(running, synced)).toBe(trayMenuKey(running, { ...synced }));
  });

  it('reads the engine status', () => {
    const status: SyncStatus = {
      online: false,
      activity: 'idle',
      paused: false,
      needsSignIn: false,
      pending: 4,
      pendingByKind: { task: 4 },
      failed: [
        {
          mutationId: 7,
          kind: 'task',
          entity: 'task:12',
          state: 'failed',
          error: null,
          attempts: 1,
          updatedAt: T0,
        },
      ],
      nextRetryAt: null,
      lastSyncAt: null,
      lastError: null,
      bootstrap: null,
      notices: [],
      changesUnseen: 0,
    };
    expect(traySyncFrom(status)).toEqual({
      online: false,
      paused: false,
      needsSignIn: false,
      pending: 4,
      failed: 1,
    });
    expect(traySyncFrom(null)).toBeNull();
  });
});
