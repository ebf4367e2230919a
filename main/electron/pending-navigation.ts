import type { AppView } from '../../shared/bridge/events';

/** Where a click outside the window (tray, app menu, deep link, notice) asks the window to go. */
export type NavigationTarget = { taskId: number } | { view: AppView };

/** The host's event push, cut to the two navigation events. */
export interface NavigationSink {
  navigate(taskId: number): void;
  openView(view: AppView): void;
}

/**
 * What the window is asked to show while its page may not be listening yet: a window opened
 * by the click itself (or still loading) gets the request once its page has loaded, not lost
 * before it. The latest view and the latest task are kept; the view goes first, so a task
 * opened from a link shows beside it.
 */
export class PendingNavigation {
  private task: number | null;
  private view: AppView | null = null;
  private ready = false;

  constructor(
    private readonly sink: () => NavigationSink | null,
    /** A task from the launch's own arguments (a clicked worktray:// link). */
    initialTask: number | null = null,
  ) {
    this.task = initialTask;
  }

  queue(target: NavigationTarget): void {
    if ('taskId' in target) this.task = target.taskId;
    else this.view = target.view;
  }

  /** The page loaded (`did-finish-load`): what waited is sent. */
  pageLoaded(): void {
    this.ready = true;
    this.flush();
  }

  /** A new page is loading, or the window closed: requests wait for the next load. */
  pageGone(): void {
    this.ready = false;
  }

  flush(): void {
    const sink = this.ready ? this.sink() : null;
    if (!sink) return;
    if (this.view !== null) sink.openView(this.view);
    this.view = null;
    if (this.task !== null) sink.navigate(this.task);
    this.task = null;
  }
}
