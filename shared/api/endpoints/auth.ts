import { authTokens, refreshRequest, tokenRequest } from '../auth';
import { endpoint } from './define';

/** Auth: Sign-in and token refresh: neither needs a bearer or X-Org-Id. */
export const authEndpoints = {
  authToken: endpoint({
    tag: 'Auth',
    method: 'POST',
    path: '/v1/auth/token',
    source: 'contract',
    auth: 'none',
    summary: 'Sign in: issue an access and a refresh token',
    body: tokenRequest,
    data: authTokens,
  }),
  authRefresh: endpoint({
    tag: 'Auth',
    method: 'POST',
    path: '/v1/auth/refresh',
    source: 'contract',
    auth: 'none',
    summary: 'Exchange (and rotate) a refresh token',
    body: refreshRequest,
    data: authTokens,
  }),
} as const;
