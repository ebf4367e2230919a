import type { BridgeResponse, EventCallback, PreloadApi } from '../../shared/bridge/define';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-channels';

/**
 * What the preload hands the page through `contextBridge`: `invoke` for the contract's methods
 * and `on` for its events, nothing else (no `ipcRenderer`, no channel names, no Node). Answers
 * are the raw response envelopes, plain data that crosses the context boundary intact; the
 * renderer's bridge client parses them against the contract.
 */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const refused = (message: string): BridgeResponse => ({
  ok: false,
  error: { code: 'unknown-method', message },
});

export const createPreloadApi = (
  ipc: IpcRendererLike,
  methodNames: readonly string[],
  eventNames: readonly string[],
): PreloadApi => {
  const methods = new Set(methodNames);
  const events = new Set(eventNames);
  return {
    invoke(method, input) {
      if (typeof method !== 'string' || !methods.has(method)) {
        return Promise.resolve(refused(`no bridge method named ${String(method)}`));
      }
      return ipc.invoke(INVOKE_CHANNEL, method, input);
    },
    on(eventOrListener: string | EventCallback, listener?: (payload: unknown) => void) {
      let deliver: (name: string, payload: unknown) => void;
      if (typeof eventOrListener === 'function') {
        const all = eventOrListener;
        deliver = (name, payload) => all(name, payload);
      } else {
        const only = eventOrListener;
        if (!events.has(only)) throw new Error(`no bridge event named ${String(only)}`);
        if (typeof listener !== 'function') throw new Error('on(event, listener): no listener');
        deliver = (name, payload) => {
          if (name === only) listener(payload);
        };
      }
      const onMessage = (_event: unknown, name: unknown, payload: unknown) => {
        if (typeof name === 'string' && events.has(name)) deliver(name, payload);
      };
      ipc.on(EVENT_CHANNEL, onMessage as (event: unknown, ...args: unknown[]) => void);
      return () => {
        ipc.removeListener(
          EVENT_CHANNEL,
          onMessage as (event: unknown, ...args: unknown[]) => void,
        );
      };
    },
  };
};
