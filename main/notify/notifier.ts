import type { BridgeEndpoint } from '../bridge/endpoint';
import { callBridge, editsPort } from '../tray/bridge-calls';
import { applyEdits } from '../tray/tray-actions';
import { digestNotifications, type NativeNotice } from './digest';

export interface NotifierOptions {
  endpoint: BridgeEndpoint;
  /** Shows a native notification; `onClick` runs when the user clicks it. */
  show(notice: NativeNotice, onClick: () => void): void;
  /** Brings the window up on a task (the bridge's `app.navigate`). */
  openTask(taskId: number): void;
  openApp(): void;
  onError?(message: string): void;
}

/** How many unread notifications one look covers (a pull rarely brings more). */
const LOOK_LIMIT = 200;

/**
 * Turns `notifications.arrived` (new in a pull) into one native notification. A click opens the
 * task and marks the notice's notifications read, each as an outbox edit.
 */
export const startNotifier = (options: NotifierOptions): (() => void) => {
  const { endpoint } = options;
  const report = (error: unknown) =>
    options.onError?.(error instanceof Error ? error.message : String(error));

  const arrived = async (ids: readonly number[]) => {
    const settings = await callBridge(endpoint, 'settings.get', {});
    if (!settings.nativeNotifications || settings.notifyKinds.length === 0 || ids.length === 0)
      return;
    const wanted = new Set(ids);
    const unread = await callBridge(endpoint, 'notifications.list', {
      unreadOnly: true,
      offset: 0,
      limit: LOOK_LIMIT,
    });
    const notice = digestNotifications(
      unread.items.filter((n) => wanted.has(n.notificationId)),
      settings.notifyKinds,
    );
    if (!notice) return;
    options.show(notice, () => {
      if (notice.taskId !== null) options.openTask(notice.taskId);
      else options.openApp();
      applyEdits(
        editsPort(endpoint),
        notice.notificationIds.map((notificationId) => ({
          kind: 'notification.read' as const,
          notificationId,
        })),
      ).catch(report);
    });
  };

  return endpoint.subscribe((event, payload) => {
    if (event !== 'notifications.arrived') return;
    const { notificationIds } = payload as { notificationIds: number[] };
    arrived(notificationIds).catch(report);
  });
};
