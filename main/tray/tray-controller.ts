import { isBridgeError, type SyncStatus } from '../../shared/bridge';
import type { AppView } from '../../shared/bridge/events';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { callBridge, editsPort } from './bridge-calls';
import { type TraySync, traySyncFrom } from './sync-line';
import { signedOutState, type TrayTimerState, trayStateFrom } from './timer-state';
import { applyEdits, editsForAction, shortcutAction } from './tray-actions';
import { buildTrayView, type TrayAction, type TrayItem, trayMenuKey } from './tray-menu';

/** What the controller drives: Electron's `Tray` behind a thin adapter (or a test's record). */
export interface TrayPort {
  setTitle(title: string): void;
  setToolTip(text: string): void;
  setMenu(items: TrayItem[], onAction: (action: TrayAction) => void): void;
}

export interface TrayHooks {
  openApp(): void;
  openTask(taskId: number): void;
  /** The window on one of its views: Sync (failed edits are retried there), Settings. */
  openView(view: AppView): void;
  checkForUpdates(): void;
  restartToUpdate(): void;
  quit(): void;
  /** A tray action the host refused (shown to the user, e.g. as a notice). */
  showError(message: string): void;
}

export interface TrayControllerOptions {
  endpoint: BridgeEndpoint;
  tray: TrayPort;
  hooks: TrayHooks;
  now?: () => number;
  /** Changes arriving in a burst (a pull) cause one re-read after this quiet time. */
  refreshDelayMs?: number;
  /** After each read of the timer (the away controller checks a shutdown marker then). */
  onRead?(state: TrayTimerState): void;
}

const touchesTimers = (entities: readonly string[]) =>
  entities.some((e) => e.startsWith('timer:') || e.startsWith('task:'));

/**
 * Keeps the tray in step with the user's timer. It reads the timer from the host when the
 * replica says timers (or task titles) changed, and otherwise only recomputes the ticking time
 * locally (`tick`, once a second), so an idle tray costs the engine nothing. The sync line
 * follows the engine's own status events.
 */
export class TrayController {
  private current: TrayTimerState;
  private sync: TraySync | null = null;
  private menuKey = '';
  private items: TrayItem[] = [];
  private updates: readonly TrayItem[] = [];
  private readonly now: () => number;
  private readonly delay: number;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private again = false;
  private off: (() => void) | null = null;

  constructor(private readonly options: TrayControllerOptions) {
    this.now = options.now ?? Date.now;
    this.delay = options.refreshDelayMs ?? 250;
    this.current = signedOutState(this.now());
  }

  get syncState(): TraySync | null {
    return this.sync;
  }

  get state(): TrayTimerState {
    return this.current;
  }

  /** The items of the menu last handed to the tray. */
  get menuItems(): readonly TrayItem[] {
    return this.items;
  }

  start(): Promise<void> {
    this.off = this.options.endpoint.subscribe((event, payload) => {
      if (event === 'session.changed') this.schedule();
      else if (event === 'sync.status') {
        const next = traySyncFrom(payload as SyncStatus);
        if (this.current.signedIn) this.sync = next;
        this.render();
      } else if (event === 'replica.changed' || event === 'entity.rekeyed') {
        const p = payload as { entities?: string[]; from?: string };
        if (touchesTimers(p.entities ?? (p.from ? [p.from] : []))) this.schedule();
      }
    });
    return this.refresh();
  }

  dispose(): void {
    this.off?.();
    if (this.pending) clearTimeout(this.pending);
  }

  /** Reads the timer again; calls during a read are folded into one more read after it. */
  refresh(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    this.inFlight = (async () => {
      do {
        this.again = false;
        this.current = await this.read();
        this.sync = this.current.signedIn ? await this.readSync() : null;
        this.render();
        this.options.onRead?.(this.current);
      } while (this.again);
    })().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The update items (update-items.ts) for the updater's status now. */
  setUpdateItems(items: readonly TrayItem[]): void {
    this.updates = items;
    this.render();
  }

  /** Once a second: only the title and tooltip change, unless the state did. */
  tick(): void {
    this.render();
  }

  async perform(action: TrayAction): Promise<void> {
    const { hooks, endpoint } = this.options;
    if (action.kind === 'open-app') return hooks.openApp();
    if (action.kind === 'open-task') return hooks.openTask(action.taskId);
    if (action.kind === 'open-view') return hooks.openView(action.view);
    if (action.kind === 'check-updates') return hooks.checkForUpdates();
    if (action.kind === 'restart-to-update') return hooks.restartToUpdate();
    if (action.kind === 'quit') return hooks.quit();
    try {
      await applyEdits(editsPort(endpoint), editsForAction(action));
    } catch (error) {
      hooks.showError(error instanceof Error ? error.message : String(error));
    }
    await this.refresh();
  }

  /** The global shortcut: stop the active timer or start the last task's. */
  async toggleLast(): Promise<void> {
    const action = shortcutAction(this.current);
    if (action) await this.perform(action);
  }

  private schedule(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.pending = null;
      void this.refresh();
    }, this.delay);
  }

  private async read(): Promise<TrayTimerState> {
    const { endpoint } = this.options;
    try {
      const session = await callBridge(endpoint, 'session.state', {});
      if (!session.signedIn) return signedOutState(this.now());
      const [active, recent] = await Promise.all([
        callBridge(endpoint, 'timers.active', {}),
        callBridge(endpoint, 'timers.recentTasks', {}),
      ]);
      return trayStateFrom(active, recent, this.now());
    } catch (error) {
      if (isBridgeError(error) && error.code === 'not-signed-in') return signedOutState(this.now());
      // A failed read keeps what the tray showed; the next change reads again.
      return this.current;
    }
  }

  /** A failed read keeps the last line: the next status event brings a fresh one. */
  private async readSync(): Promise<TraySync | null> {
    try {
      return traySyncFrom(await callBridge(this.options.endpoint, 'sync.status', {}));
    } catch {
      return this.sync;
    }
  }

  private render(): void {
    const { tray } = this.options;
    const view = buildTrayView(this.current, this.now(), this.sync, this.updates);
    tray.setTitle(view.title);
    tray.setToolTip(view.tooltip);
    const key = trayMenuKey(this.current, this.sync, this.updates);
    if (key !== this.menuKey) {
      this.menuKey = key;
      this.items = view.items;
      tray.setMenu(view.items, (action) => void this.perform(action));
    }
  }
}
