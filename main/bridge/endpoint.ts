import type { BridgeResponse } from '../../shared/bridge/define';
import type { Dispatcher } from './dispatcher';
import type { EventListener } from './events';

/**
 * The bridge as a transport sees it, wherever the services run (this thread or a worker):
 * calls by name with raw JSON input, and a stream of already validated events.
 */
export interface BridgeEndpoint {
  call(method: string, input: unknown): Promise<BridgeResponse>;
  subscribe(listener: EventListener): () => void;
}

export const localEndpoint = (
  dispatcher: Dispatcher,
  hub: { subscribe(listener: EventListener): () => void },
): BridgeEndpoint => ({
  call: (method, input) => dispatcher.call(method, input),
  subscribe: (listener) => hub.subscribe(listener),
});
