import type { z } from 'zod';
import {
  type BridgeClient,
  BridgeError,
  type BridgeOutput,
  bridgeContract,
  bridgeEvents,
  bridgeResponse,
  type Contract,
  type EventContract,
} from '../../shared/bridge';

/**
 * How calls and events travel: Electron's preload or browser mode's HTTP + SSE. A transport
 * carries JSON only; the client checks both directions against the contract, so a host bug or a
 * stale build shows as a clear `invalid-output` error rather than a view rendering garbage.
 */
export interface Transport {
  /** Sends one call; resolves with the raw response envelope ({ok, value} | {ok, error}). */
  invoke(method: string, input: unknown): Promise<unknown>;
  /** Every event the host emits, by name; returns an unsubscribe. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

const issuesToFields = (issues: readonly z.core.$ZodIssue[]) =>
  issues.map((i) => ({ field: i.path.join('.') || '(input)', message: i.message }));

export function createBridgeClient(
  transport: Transport,
  methods: Contract = bridgeContract,
  events: EventContract = bridgeEvents,
): BridgeClient {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  // Outputs already checked, by the envelope they came in: a transport that hands back the
  // same envelope for the same answer gets the same output back without a second check.
  const checkedOutputs = new WeakMap<object, unknown>();
  // One transport subscription for the window's lifetime, made when the first listener comes.
  let subscribed = false;

  const dispatch = (event: string, payload: unknown) => {
    const set = listeners.get(event);
    const schema = events[event];
    if (!set || set.size === 0 || !schema) return;
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      console.error(`bridge event ${event}: payload refused`, parsed.error.issues);
      return;
    }
    for (const l of set) l(parsed.data);
  };

  return {
    async invoke(method, input) {
      const spec = methods[method];
      if (!spec) throw new BridgeError({ code: 'unknown-method', message: `no method ${method}` });
      const checked = spec.input.safeParse(input);
      if (!checked.success) {
        throw new BridgeError({
          code: 'invalid-input',
          message: checked.error.issues[0]?.message ?? 'invalid input',
          fieldErrors: issuesToFields(checked.error.issues),
        });
      }
      // The raw input travels: the host parses it again with the same schema (transforms
      // run once, on the side that acts on the value).
      const raw = await transport.invoke(method, input);
      const known = typeof raw === 'object' && raw !== null ? checkedOutputs.get(raw) : undefined;
      if (known !== undefined) return known as BridgeOutput<typeof method>;
      const envelope = bridgeResponse.safeParse(raw);
      if (!envelope.success) {
        throw new BridgeError({ code: 'internal', message: `${method}: malformed response` });
      }
      if (!envelope.data.ok) throw new BridgeError(envelope.data.error);
      const out = spec.output.safeParse(envelope.data.value);
      if (!out.success) {
        console.error(`bridge ${method}: output refused`, out.error.issues);
        throw new BridgeError({
          code: 'invalid-output',
          message: `${method}: the host answered something this UI does not understand`,
          fieldErrors: issuesToFields(out.error.issues),
        });
      }
      if (typeof raw === 'object' && raw !== null) checkedOutputs.set(raw, out.data);
      return out.data as BridgeOutput<typeof method>;
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      const l = listener as (payload: unknown) => void;
      set.add(l);
      if (!subscribed) {
        transport.subscribe(dispatch);
        subscribed = true;
      }
      return () => {
        set.delete(l);
      };
    },
  };
}
