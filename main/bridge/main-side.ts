import type { BridgeMethod } from '../../shared/bridge';
import type { BridgeResponse } from '../../shared/bridge/define';
import type { BridgeEndpoint } from './endpoint';

/**
 * What the Electron main process adds to a method the worker answered: the worker's answer
 * (already checked against the method's output schema there) and the call's input, in; the
 * answer the window gets, out. Only the main process can reach the system's shell.
 */
export type MainSide = (value: unknown, input: unknown) => Promise<BridgeResponse>;

/** The methods the main process finishes, by their contract names. */
export type MainSideTable = Partial<Record<BridgeMethod, MainSide>>;

/** The endpoint with the table's methods finished on this side; a refusal passes as it is. */
export const withMainSide = (endpoint: BridgeEndpoint, table: MainSideTable): BridgeEndpoint => ({
  subscribe: (listener) => endpoint.subscribe(listener),
  async call(method, input) {
    const answer = await endpoint.call(method, input);
    const finish = Object.hasOwn(table, method) ? table[method as BridgeMethod] : undefined;
    return finish && answer.ok ? finish(answer.value, input) : answer;
  },
});
