import {
  BridgeError,
  type BridgeInput,
  type BridgeMethod,
  type BridgeOutput,
} from '../../shared/bridge';
import type { EditCommand } from '../../shared/edits/commands';
import type { BridgeEndpoint } from '../bridge/endpoint';
import type { EditsPort } from './tray-actions';

/**
 * The main process's own calls (tray, shortcut, notices) go through the same endpoint as the
 * window's: parsed by the contract, edits through `edits.apply` and the outbox.
 */
export const callBridge = async <M extends BridgeMethod>(
  endpoint: Pick<BridgeEndpoint, 'call'>,
  method: M,
  input: BridgeInput<M>,
): Promise<BridgeOutput<M>> => {
  const answer = await endpoint.call(method, input);
  if (!answer.ok) throw new BridgeError(answer.error);
  return answer.value as BridgeOutput<M>;
};

export const editsPort = (endpoint: Pick<BridgeEndpoint, 'call'>): EditsPort => ({
  apply: (command: EditCommand) => callBridge(endpoint, 'edits.apply', command),
});
