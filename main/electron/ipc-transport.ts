import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { BridgeResponse } from '../../shared/bridge/define';
import { DisposableStore } from '../../shared/lifecycle';
import type { BridgeEndpoint } from '../bridge/endpoint';
import { isOurOrigin } from './app-origin';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-channels';

/**
 * The bridge over Electron IPC: one `ipcMain.handle` channel for calls, one `send` channel for
 * events. A call is answered only for the main frame of one of our windows showing our
 * `app://` origin; an iframe, a navigated-away page or another window's contents is refused.
 */

/** The part of the sending frame the check reads (Electron's `WebFrameMain`). */
export interface SenderFrame {
  url: string;
  parent: unknown;
  detached?: boolean;
}

/** Main frame (no parent), attached, on our origin. */
export const isTrustedFrame = (frame: SenderFrame | null): boolean =>
  frame !== null && frame.parent === null && frame.detached !== true && isOurOrigin(frame.url);

const forbidden = (message: string): BridgeResponse => ({
  ok: false,
  error: { code: 'forbidden', message },
});

export interface IpcBindingOptions {
  /** Is this one of the windows we made (by its contents)? */
  isOurContents(contents: WebContents): boolean;
  /** Told of refused callers (never of inputs, which may carry passwords). */
  onRefused?(reason: string): void;
}

/** Registers the invoke channel; returns the unregister. */
export const bindIpcCalls = (
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  endpoint: Pick<BridgeEndpoint, 'call'>,
  options: IpcBindingOptions,
): (() => void) => {
  ipcMain.handle(
    INVOKE_CHANNEL,
    async (event: IpcMainInvokeEvent, method: unknown, input: unknown) => {
      if (!options.isOurContents(event.sender) || !isTrustedFrame(event.senderFrame)) {
        options.onRefused?.(`call from ${event.senderFrame?.url ?? 'a gone frame'}`);
        return forbidden('calls are accepted from the app window only');
      }
      if (typeof method !== 'string') {
        return { ok: false, error: { code: 'unknown-method', message: 'no method name' } };
      }
      return endpoint.call(method, input);
    },
  );
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
};

/** Sends every bridge event to the window while it shows our page. */
export const forwardEvents = (
  sources: readonly Pick<BridgeEndpoint, 'subscribe'>[],
  target: () => Pick<WebContents, 'send' | 'isDestroyed' | 'getURL'> | null,
): (() => void) => {
  const send = (event: string, payload: unknown) => {
    const contents = target();
    if (!contents || contents.isDestroyed() || !isOurOrigin(contents.getURL())) return;
    contents.send(EVENT_CHANNEL, event, payload);
  };
  const subscriptions = new DisposableStore();
  for (const source of sources) subscriptions.addRelease(source.subscribe(send));
  return () => subscriptions.dispose();
};
