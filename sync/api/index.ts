export { type ApiClient, type ApiClientOptions, createApiClient } from './client';
export {
  ApiClientError,
  type ApiClientErrorInit,
  type ApiErrorKind,
  apiErrorKinds,
  type ClientFieldError,
  isApiClientError,
  parseRetryAfter,
} from './errors';
export {
  type CallTimeouts,
  createHttp,
  defaultTimeouts,
  type Http,
  type HttpOptions,
  MAX_CONNECTIONS,
  type Timeouts,
} from './http';
export { CursorPaging, MAX_EMPTY_PAGES, MAX_PAGES, NumberedPaging } from './paging';
export type { ResolveOptions } from './project-task';
export { serializeQuery } from './query';
export { type ClockEstimate, type ClockSample, ServerClock } from './server-clock';
export {
  createSession,
  type Session,
  type SessionIdentity,
  type SessionOptions,
  type SessionState,
  type SessionTokens,
  type SignInOptions,
  signIn,
} from './session';
export type {
  BinaryContent,
  OperationArgs,
  OperationFn,
  OperationId,
  OperationResult,
  Operations,
  ProgressCallback,
  UploadFile,
} from './types';
export { guessContentType, type UploadRules } from './upload';
