import {
  BridgeError,
  type BridgeInput,
  type BridgeMethod,
  type BridgeOutput,
  type Settings,
  settings as settingsSchema,
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

/**
 * Calls `apply` with every settings record the host announces (`settings.changed`), whichever
 * transport made the change; a payload of another shape is reported, not applied.
 */
export const followSettings = (
  endpoint: Pick<BridgeEndpoint, 'subscribe'>,
  apply: (settings: Settings) => void,
  onError: (message: string) => void,
): (() => void) =>
  endpoint.subscribe((event, payload) => {
    if (event !== 'settings.changed') return;
    const parsed = settingsSchema.safeParse(payload);
    if (parsed.success) apply(parsed.data);
    else onError(`settings.changed of an unknown shape: ${parsed.error.issues[0]?.message}`);
  });
