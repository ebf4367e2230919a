import type { BridgeErrorData } from '../../shared/bridge/define';
import { LocalIdError } from '../outbox/local-ids';
import { OutboxStateError } from '../outbox/queue';

/**
 * The engine's refusals as bridge errors: an edit it cannot apply (unknown entity, wrong
 * place), an outbox row in the wrong state, a local id never allocated. Null: not one of them.
 */
export const engineRefusal = (error: unknown): BridgeErrorData | null => {
  if (error instanceof LocalIdError || error instanceof OutboxStateError)
    return { code: 'rejected', message: error.message };
  // By name, so this mapping does not tie the door to the edit layer's module layout.
  if (error instanceof Error && error.name === 'EditError') {
    const notFound = (error as { code?: unknown }).code === 'not-found';
    return { code: notFound ? 'not-found' : 'invalid-input', message: error.message };
  }
  return null;
};
