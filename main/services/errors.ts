import type { BridgeErrorData } from '../../shared/bridge/define';
import { type ApiErrorKind, isApiClientError } from '../../sync/api';
import { LocalIdError } from '../../sync/outbox/local-ids';
import { OutboxStateError } from '../../sync/outbox/queue';

const codeOfKind: Record<ApiErrorKind, BridgeErrorData['code']> = {
  network: 'offline',
  timeout: 'offline',
  auth: 'unauthorized',
  forbidden: 'rejected',
  'not-found': 'not-found',
  validation: 'invalid-input',
  conflict: 'rejected',
  'rate-limit': 'offline',
  server: 'rejected',
  'bad-response': 'rejected',
};

/**
 * Errors of the layers below as bridge errors. The server's words are kept (they are what the
 * user needs to read); nothing else of the error (URLs with tokens, stacks) leaves the host.
 */
export const mapServiceError = (error: unknown): BridgeErrorData | null => {
  if (isApiClientError(error)) {
    const fieldErrors = error.fieldErrors.length > 0 ? error.fieldErrors : undefined;
    return {
      code: codeOfKind[error.kind],
      message:
        error.kind === 'network' || error.kind === 'timeout'
          ? `the server cannot be reached: ${error.message}`
          : error.message,
      ...(fieldErrors ? { fieldErrors } : {}),
    };
  }
  if (error instanceof LocalIdError || error instanceof OutboxStateError)
    return { code: 'rejected', message: error.message };
  // The edit layer's refusal of an edit it cannot apply (unknown entity, wrong place): by
  // name, so this mapping does not tie the host to the edit layer's module layout.
  if (error instanceof Error && error.name === 'EditError') {
    const notFound = (error as { code?: unknown }).code === 'not-found';
    return { code: notFound ? 'not-found' : 'invalid-input', message: error.message };
  }
  return null;
};
