/**
 * Native notices from the main process. Electron holds a `Notification` only weakly: once no
 * JavaScript keeps it, V8 may collect it with its listeners, and a click on the notice (still on
 * screen, or in the notification centre) then does nothing (electron/electron#16922). Each notice
 * is kept here until it is clicked, closed or has failed; beyond `limit` the oldest is let go, so
 * notices nobody ever touches cannot pile up over a long session.
 */
export interface NoticeLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  /** Windows only: the toast could not be shown. */
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
  show(): void;
}

/** Electron's `Notification` class, or a stand-in. */
export interface NoticeClass {
  new (options: { title: string; body: string; silent: boolean }): NoticeLike;
  isSupported(): boolean;
}

export interface NativeNotices {
  /** Shows a notice; false when the system has none to show. */
  notify(title: string, body: string, onClick?: () => void): boolean;
  /** How many notices are kept now. */
  readonly kept: number;
}

/** Notices kept at most: the app raises one per pull that brings news, so a day stays under. */
export const KEPT_NOTICES = 20;

export const nativeNotices = (
  Notice: NoticeClass,
  { limit = KEPT_NOTICES, onFailed }: { limit?: number; onFailed?(error: string): void } = {},
): NativeNotices => {
  const kept = new Set<NoticeLike>();
  return {
    notify(title, body, onClick) {
      if (!Notice.isSupported()) return false;
      const notice = new Notice({ title, body, silent: false });
      notice.on('click', () => {
        kept.delete(notice);
        onClick?.();
      });
      notice.on('close', () => kept.delete(notice));
      notice.on('failed', (_event, error) => {
        kept.delete(notice);
        onFailed?.(error);
      });
      kept.add(notice);
      for (const oldest of kept) {
        if (kept.size <= limit) break;
        kept.delete(oldest);
      }
      notice.show();
      return true;
    },
    get kept() {
      return kept.size;
    },
  };
};
