import { describe, expect, it } from 'vitest';
import {
  ApiClientError,
  apiErrorKinds,
  errorFromHttp,
  errorFromTransport,
  kindForStatus,
  parseRetryAfter,
} from './errors';

const NOW = Date.parse('2025-03-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(1_500);
  });
  it('reads an HTTP date, never negative', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', NOW)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });
});

describe('kindForStatus', () => {
  it('maps the contract statuses', () => {
    expect([400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 599].map(kindForStatus)).toEqual([
      'validation',
      'auth',
      'forbidden',
      'not-found',
      'conflict',
      'validation',
      'validation',
      'rate-limit',
      'server',
      'server',
      'server',
    ]);
    expect(kindForStatus(302)).toBeUndefined();
    expect(kindForStatus(418)).toBeUndefined();
  });
});

describe('errorFromHttp', () => {
  it('keeps the server message, status constant and field errors', () => {
    const e = errorFromHttp(
      {
        status: 400,
        headers: {},
        text: JSON.stringify({
          success: false,
          message: 'Validation failed',
          code: 400,
          status: 'BAD_REQUEST',
          errors: [{ field: 'name', message: 'blank', rejectedValue: '' }],
        }),
      },
      'createSpace',
      NOW,
    );
    expect(e).toMatchObject({
      kind: 'validation',
      status: 400,
      serverStatus: 'BAD_REQUEST',
      message: 'Validation failed',
      operationId: 'createSpace',
      transient: false,
    });
    expect(e.fieldErrors).toEqual([{ field: 'name', message: 'blank' }]);
  });
  it('maps an unknown status with a non-ApiError body to bad-response', () => {
    const e = errorFromHttp({ status: 302, headers: {}, text: '<html/>' }, 'x', NOW);
    expect(e.kind).toBe('bad-response');
    expect(e.message).toContain('302');
  });
  it('reads Retry-After only where it means something', () => {
    const h = { 'retry-after': '3' };
    expect(errorFromHttp({ status: 429, headers: h, text: '' }, 'x', NOW).retryAfterMs).toBe(3_000);
    expect(errorFromHttp({ status: 503, headers: h, text: '' }, 'x', NOW).retryAfterMs).toBe(3_000);
    expect(
      errorFromHttp({ status: 400, headers: h, text: '' }, 'x', NOW).retryAfterMs,
    ).toBeUndefined();
  });
});

describe('errorFromTransport', () => {
  const withCode = (code: string, name = 'Error') => Object.assign(new Error(code), { code, name });
  it('maps undici and socket errors', () => {
    expect(errorFromTransport(withCode('UND_ERR_HEADERS_TIMEOUT'), 'x').kind).toBe('timeout');
    expect(errorFromTransport(withCode('UND_ERR_BODY_TIMEOUT'), 'x').kind).toBe('timeout');
    expect(errorFromTransport(withCode('UND_ERR_CONNECT_TIMEOUT'), 'x').kind).toBe('timeout');
    expect(errorFromTransport(withCode('ECONNREFUSED'), 'x').kind).toBe('network');
    expect(errorFromTransport(withCode('ECONNRESET'), 'x').kind).toBe('network');
    expect(errorFromTransport(withCode('UND_ERR_SOCKET'), 'x').kind).toBe('network');
    expect(errorFromTransport(new Error('x', { cause: withCode('ETIMEDOUT') }), 'x').kind).toBe(
      'timeout',
    );
    expect(errorFromTransport('weird', 'x').kind).toBe('network');
  });
  it('passes an ApiClientError through, also from a cause chain', () => {
    const inner = new ApiClientError({ kind: 'validation', message: 'm', operationId: 'op' });
    expect(errorFromTransport(inner, 'x')).toBe(inner);
    expect(errorFromTransport(new Error('wrap', { cause: inner }), 'x')).toBe(inner);
  });
  it('flags exactly network, timeout, rate-limit and server as transient', () => {
    const transient = apiErrorKinds.filter(
      (kind) => new ApiClientError({ kind, message: '', operationId: 'x' }).transient,
    );
    expect(transient).toEqual(['network', 'timeout', 'rate-limit', 'server']);
  });
});
