import type { EditCommand } from '../../shared/edits/commands';
import type { TrayTimerState } from './timer-state';
import type { TrayAction } from './tray-menu';

/**
 * The edits a tray action makes. Every one goes through the bridge's `edits.apply`, so it is
 * applied to the replica at once and queued in the outbox: the tray works offline.
 */
export const editsForAction = (action: TrayAction): EditCommand[] => {
  switch (action.kind) {
    case 'pause':
      return [{ kind: 'timer.pause', trackId: action.trackId }];
    case 'resume':
      return [{ kind: 'timer.resume', trackId: action.trackId }];
    case 'stop':
      return [{ kind: 'timer.stop', trackId: action.trackId }];
    case 'start':
      return [{ kind: 'timer.start', taskId: action.taskId }];
    // The server allows one active timer: the stop is queued before the start.
    case 'switch':
      return [
        { kind: 'timer.stop', trackId: action.trackId },
        { kind: 'timer.start', taskId: action.taskId },
      ];
    case 'open-app':
    case 'open-task':
    case 'open-view':
    case 'check-updates':
    case 'restart-to-update':
    case 'quit':
      return [];
  }
};

/**
 * The global shortcut: stops the active timer (running or paused), or starts the task timed
 * last. Null when there is nothing to do (signed out, or no task was ever timed).
 */
export const shortcutAction = (state: TrayTimerState): TrayAction | null => {
  if (!state.signedIn) return null;
  if (state.active) return { kind: 'stop', trackId: state.active.trackId };
  const last = state.recent[0];
  return last ? { kind: 'start', taskId: last.taskId } : null;
};

export interface EditsPort {
  apply(command: EditCommand): Promise<unknown>;
}

/**
 * Applies the edits in order; the first failure stops the rest (a switch whose stop is refused
 * must not start a second timer) and is rethrown for the caller to show.
 */
export const applyEdits = async (port: EditsPort, commands: readonly EditCommand[]) => {
  for (const command of commands) await port.apply(command);
};
