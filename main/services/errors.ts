import type { BridgeErrorData } from '../../shared/bridge/define';
import { type ApiErrorKind, isApiClientError } from '../../sync/api';
import { engineRefusal } from '../../sync/door';

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
  return engineRefusal(error);
};
