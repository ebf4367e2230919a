import type { BridgeClient } from '../../shared/bridge';
import { createBridgeClient } from '../bridge/client';
import { pickTransport } from '../bridge/transports';

let current: BridgeClient | null = null;

/** The one bridge of this window; made on first use from whatever transport the page has. */
export function bridge(): BridgeClient {
  current ??= createBridgeClient(pickTransport());
  return current;
}
