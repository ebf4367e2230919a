import type { PreloadApi } from '../../shared/bridge/define';
import type { Transport } from './client';
import { takePageSecret } from './secret';

declare global {
  interface Window {
    worktray?: PreloadApi;
  }
}

export const preloadTransport = (api: PreloadApi): Transport => ({
  invoke: (method, input) => api.invoke(method, input),
  subscribe: (listener) => api.on(listener),
});

/** Calls whose answers are remembered (the latest of each), and the largest input that counts. */
const MEMO_CALLS = 64;
const MEMO_BODY = 2048;

/**
 * Browser mode: calls are POSTs to `/bridge/<method>`, events one Server-Sent Events stream.
 * The per-launch secret goes with every request, so another page on this machine cannot drive
 * the host: in a header on calls; in the query only for the event stream, as EventSource
 * cannot set headers (the host takes the query form for nothing else).
 */
export function httpTransport(base: string, secret: string): Transport {
  const headers = { 'content-type': 'application/json', 'x-worktray-secret': secret };
  // The latest answers of small calls, as text: a re-read answered with the very same text
  // (most re-reads after a change elsewhere) gets the very same object, which the client has
  // already checked, so nothing is parsed or validated again and nothing renders.
  const recent = new Map<string, { text: string; value: unknown }>();
  return {
    async invoke(method, input) {
      const body = JSON.stringify(input ?? {});
      const res = await fetch(`${base}/bridge/${encodeURIComponent(method)}`, {
        method: 'POST',
        headers,
        body,
      });
      const text = await res.text();
      const key = body.length <= MEMO_BODY ? `${method} ${body}` : null;
      const hit = key === null ? undefined : recent.get(key);
      if (key !== null && hit?.text === text) {
        recent.delete(key);
        recent.set(key, hit);
        return hit.value;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return {
          ok: false,
          error: { code: 'internal', message: `the host answered ${res.status} without JSON` },
        };
      }
      if (key !== null) {
        recent.delete(key);
        recent.set(key, { text, value });
        if (recent.size > MEMO_CALLS) recent.delete(recent.keys().next().value ?? '');
      }
      return value;
    },
    subscribe(listener) {
      const source = new EventSource(`${base}/bridge/events?secret=${encodeURIComponent(secret)}`);
      const onMessage = (e: MessageEvent<string>) => {
        try {
          const msg = JSON.parse(e.data) as { event?: unknown; payload?: unknown };
          if (typeof msg.event === 'string') listener(msg.event, msg.payload);
        } catch {
          console.error('bridge events: a message that is not JSON');
        }
      };
      source.addEventListener('message', onMessage);
      return () => source.close();
    },
  };
}

/** The preload when running in Electron, else browser mode with the page's secret. */
export function pickTransport(): Transport {
  if (window.worktray) return preloadTransport(window.worktray);
  return httpTransport(window.location.origin, takePageSecret(window));
}
