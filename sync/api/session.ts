/**
 * The signed-in session: the token pair, its lifetimes, and the one refresh that many calls
 * may wait on. Tokens live in closure variables only (never on an enumerable property, never
 * in an error message or log line); the host persists them through `onTokens`.
 */
import type { AuthTokens, Organization } from '../../shared/api/auth';
import type { UserRef } from '../../shared/api/common';
import { buildUrl, type CallContext, DEFAULT_USER_AGENT, executeOperation } from './call';
import { ApiClientError, asOperation, isApiClientError } from './errors';
import { createHttp, type Http, type HttpOptions } from './http';

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms, by the session's clock. */
  accessExpiresAt: number;
  refreshExpiresAt: number;
}

export interface SessionIdentity {
  user: UserRef | undefined;
  organizations: readonly Organization[];
}

export type SessionState = 'signed-in' | 'refreshing' | 'signed-out';

export interface SessionOptions {
  /** Tokens of a session to resume (the host decrypted them from its vault). */
  tokens: SessionTokens;
  /** Who the tokens belong to, when resuming; a refresh or sign-in updates it. */
  user?: UserRef;
  organizations?: readonly Organization[];
  /** Every new token pair (sign-in, each refresh); awaited, its failure ignored. */
  onTokens?: (tokens: SessionTokens, identity: SessionIdentity) => void | Promise<void>;
  /** The refresh token was refused: the user must sign in again. */
  onSignedOut?: (reason: ApiClientError) => void;
  clock?: () => number;
  /** An HTTP layer to share, or options for the session's own (which it then owns). */
  http?: Http | HttpOptions;
  userAgent?: string;
  /** Refresh this long before the access token's known expiry (clock skew, slow calls). */
  refreshSkewMs?: number;
}

export interface Session {
  readonly baseUrl: URL;
  readonly state: SessionState;
  readonly user: UserRef | undefined;
  readonly organizations: readonly Organization[];
  readonly clock: () => number;
  readonly http: Http;
  readonly userAgent: string;
  /** A usable access token, refreshing first when it is known to be expired. */
  accessToken(operationId: string): Promise<string>;
  /**
   * The server refused `rejected` (401): refresh once, whoever asks and however many ask at
   * the same time, and answer the new access token. Throws an `auth` error when signed out.
   */
  refreshAfterUnauthorized(rejected: string, operationId: string): Promise<string>;
  /** Forget the tokens; every later call fails with `auth`. */
  signOut(): void;
  /**
   * Signs out, and asks the server to end the session too (`POST /v1/auth/revoke`, the
   * reference server's extension): best effort, bounded; a service without it (404), an
   * error or a timeout changes nothing here.
   */
  revoke(): Promise<void>;
  /** Ends the session's own HTTP layer (not a shared one). */
  close(): Promise<void>;
}

const isHttp = (h: Http | HttpOptions | undefined): h is Http =>
  typeof h === 'object' && h !== null && typeof (h as Http).send === 'function';

const tokensFrom = (answer: AuthTokens, startedAt: number): SessionTokens => ({
  accessToken: answer.accessToken,
  refreshToken: answer.refreshToken,
  // From the request's start: the lifetimes began somewhere during the round trip.
  accessExpiresAt: startedAt + answer.expiresIn * 1000,
  refreshExpiresAt: startedAt + answer.refreshExpiresIn * 1000,
});

const parseBaseUrl = (baseUrl: string | URL): URL => {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`base URL must be http(s): ${url.protocol}`);
  return url;
};

/** Refusals of the refresh request that mean the refresh token is dead for good. */
const endsSession = (e: ApiClientError): boolean =>
  e.kind === 'auth' || e.kind === 'forbidden' || e.kind === 'validation';

/** Resumes a session from stored tokens (or wraps the answer of a sign-in). */
export const createSession = (baseUrl: string | URL, options: SessionOptions): Session => {
  const ownsHttp = !isHttp(options.http);
  const http = isHttp(options.http) ? options.http : createHttp(options.http);
  return buildSession(parseBaseUrl(baseUrl), options, http, ownsHttp);
};

const buildSession = (
  base: URL,
  options: SessionOptions,
  http: Http,
  ownsHttp: boolean,
): Session => {
  const clock = options.clock ?? Date.now;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const skew = options.refreshSkewMs ?? 30_000;
  const ctx: CallContext = { http, baseUrl: base, clock, userAgent };

  let tokens: SessionTokens | undefined = { ...options.tokens };
  let user = options.user;
  let organizations: readonly Organization[] = options.organizations ?? [];
  let refreshing: Promise<string> | undefined;

  const signedOutError = (operationId: string, cause?: unknown) =>
    new ApiClientError({
      kind: 'auth',
      status: 401,
      operationId,
      message: 'signed out: sign in again',
      cause,
    });

  const endSession = (reason: ApiClientError) => {
    const wasSignedIn = tokens !== undefined;
    tokens = undefined;
    if (wasSignedIn) options.onSignedOut?.(reason);
  };

  const publish = async (next: SessionTokens) => {
    try {
      await options.onTokens?.({ ...next }, { user, organizations });
    } catch {
      // The pair is valid in memory; persisting it is the host's job and its failure is
      // the host's to report. Failing the call here would lose a rotated refresh token.
    }
  };

  const doRefresh = async (operationId: string): Promise<string> => {
    const current = tokens;
    if (!current) throw signedOutError(operationId);
    const startedAt = clock();
    let answer: AuthTokens;
    try {
      answer = (await executeOperation(ctx, 'authRefresh', {
        body: { refreshToken: current.refreshToken },
      })) as AuthTokens;
    } catch (e) {
      if (isApiClientError(e) && endsSession(e)) {
        const reason = signedOutError(operationId, e);
        endSession(reason);
        throw reason;
      }
      // Network, timeout, 5xx: the refresh token may still be good; the caller retries later.
      throw e;
    }
    // Signed out while the refresh was in flight: do not resurrect the session.
    if (tokens !== current) throw signedOutError(operationId);
    const next = tokensFrom(answer, startedAt);
    tokens = next;
    user = answer.user;
    organizations = answer.organizations;
    await publish(next);
    return next.accessToken;
  };

  /** Starts the refresh or joins the one in flight; its failure is told as `operationId`'s. */
  const refresh = (operationId: string): Promise<string> => {
    refreshing ??= doRefresh(operationId).finally(() => {
      refreshing = undefined;
    });
    return refreshing.catch((e: unknown) => {
      throw asOperation(e, operationId);
    });
  };

  const session: Session = {
    baseUrl: base,
    get state(): SessionState {
      if (!tokens) return 'signed-out';
      return refreshing ? 'refreshing' : 'signed-in';
    },
    get user() {
      return user;
    },
    get organizations() {
      return organizations;
    },
    clock,
    http,
    userAgent,
    async accessToken(operationId) {
      if (refreshing) return refresh(operationId);
      if (!tokens) throw signedOutError(operationId);
      if (clock() >= tokens.accessExpiresAt - skew) return refresh(operationId);
      return tokens.accessToken;
    },
    async refreshAfterUnauthorized(rejected, operationId) {
      if (refreshing) return refresh(operationId);
      if (!tokens) throw signedOutError(operationId);
      // Another call already refreshed since this one was sent: use its token.
      if (tokens.accessToken !== rejected) return tokens.accessToken;
      return refresh(operationId);
    },
    signOut() {
      tokens = undefined;
    },
    async revoke() {
      const current = tokens;
      tokens = undefined;
      if (!current) return;
      try {
        await http.send({
          operationId: 'authRevoke',
          method: 'POST',
          url: buildUrl(base, '/v1/auth/revoke', ''),
          headers: { 'content-type': 'application/json', 'user-agent': userAgent },
          body: JSON.stringify({ refreshToken: current.refreshToken }),
          timeouts: { totalMs: 5_000 },
        });
      } catch {
        // Signed out here whatever the server says; its tokens then die of old age.
      }
    },
    close() {
      return ownsHttp ? http.close() : Promise.resolve();
    },
  };
  return session;
};

export type SignInOptions = Omit<SessionOptions, 'tokens' | 'user' | 'organizations'>;

/**
 * Signs in with email and password (`authToken`). A refusal is thrown as it came (`auth`
 * for wrong credentials, `validation` for a malformed email, …); nothing is kept.
 */
export const signIn = async (
  baseUrl: string | URL,
  email: string,
  password: string,
  options: SignInOptions = {},
): Promise<Session> => {
  const base = parseBaseUrl(baseUrl);
  const clock = options.clock ?? Date.now;
  const ownsHttp = !isHttp(options.http);
  const http = isHttp(options.http) ? options.http : createHttp(options.http);
  const ctx: CallContext = {
    http,
    baseUrl: base,
    clock,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
  };
  const startedAt = clock();
  let answer: AuthTokens;
  try {
    answer = (await executeOperation(ctx, 'authToken', {
      body: { email, password },
    })) as AuthTokens;
  } catch (e) {
    if (ownsHttp) await http.close();
    throw e;
  }
  const tokens = tokensFrom(answer, startedAt);
  const session = buildSession(
    base,
    { ...options, tokens, user: answer.user, organizations: answer.organizations },
    http,
    ownsHttp,
  );
  try {
    await options.onTokens?.(
      { ...tokens },
      { user: answer.user, organizations: answer.organizations },
    );
  } catch {
    // See `publish`: the session is valid even if persisting it failed.
  }
  return session;
};
