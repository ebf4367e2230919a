import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiClientError, type ApiErrorKind, apiErrorKinds } from '../api/errors';
import { classifyFailure, nextAttemptDelay, outboxError } from './backoff';
import { type FailureClass, type MutationKind, mutationKindNames } from './types';

describe('nextAttemptDelay', () => {
  it('doubles from 1 s with jitter in the upper half of each step, capped at 5 min', () => {
    expect(nextAttemptDelay(1, undefined, () => 0)).toBe(500);
    expect(nextAttemptDelay(1, undefined, () => 1)).toBe(1_000);
    expect(nextAttemptDelay(2, undefined, () => 1)).toBe(2_000);
    expect(nextAttemptDelay(4, undefined, () => 0.5)).toBe(6_000);
    expect(nextAttemptDelay(30, undefined, () => 1)).toBe(300_000);
    expect(nextAttemptDelay(1_000, undefined, () => 0)).toBe(150_000);
    expect(nextAttemptDelay(0, undefined, () => 1)).toBe(1_000);
  });

  it('stays within bounds for any attempt count and random value', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1 }), (n, r) => {
        const d = nextAttemptDelay(n, undefined, () => r);
        const step = Math.min(300_000, 1_000 * 2 ** Math.min(n - 1, 52));
        expect(d).toBeGreaterThanOrEqual(step / 2);
        expect(d).toBeLessThanOrEqual(step);
      }),
    );
  });

  it('honours Retry-After as a floor, even above the cap', () => {
    expect(nextAttemptDelay(1, 30_000, () => 1)).toBe(30_000);
    expect(nextAttemptDelay(1, 600_000, () => 1)).toBe(600_000);
    expect(nextAttemptDelay(12, 10, () => 1)).toBe(300_000);
    expect(nextAttemptDelay(1, -5, () => 0)).toBe(500);
    expect(nextAttemptDelay(1, Number.NaN, () => 0)).toBe(500);
  });

  it('takes other bases and caps', () => {
    expect(nextAttemptDelay(3, undefined, () => 1, { baseMs: 100, capMs: 250 })).toBe(250);
  });
});

const err = (kind: ApiErrorKind, status?: number) =>
  new ApiClientError({ kind, status, message: `${kind}!`, operationId: 'updateTask' });

describe('classifyFailure', () => {
  const expected: Record<ApiErrorKind, [FailureClass, FailureClass]> = {
    // [for an update, for a create]
    network: ['retry', 'retry'],
    timeout: ['retry', 'retry'],
    server: ['retry', 'retry'],
    'bad-response': ['retry', 'retry'],
    'rate-limit': ['rate-limited', 'rate-limited'],
    auth: ['auth', 'auth'],
    validation: ['permanent', 'permanent'],
    forbidden: ['permanent', 'permanent'],
    conflict: ['permanent', 'permanent'],
    'not-found': ['conflict', 'permanent'],
  };

  it.each(apiErrorKinds)('classifies %s', (kind) => {
    const [onUpdate, onCreate] = expected[kind];
    expect(classifyFailure(err(kind), 'task.update')).toBe(onUpdate);
    expect(classifyFailure(err(kind), 'checklist.create')).toBe(onCreate);
  });

  it('retries a time refused as being in the future (our clock ahead), fails other refusals', () => {
    const refused = (field: string, message: string) =>
      new ApiClientError({
        kind: 'validation',
        status: 400,
        message: 'invalid body',
        operationId: 'startTimer',
        fieldErrors: [{ field, message }],
      });
    expect(classifyFailure(refused('startTime', 'must not be in the future'), 'timer.start')).toBe(
      'retry',
    );
    expect(classifyFailure(refused('endTime', 'must not be in the future'), 'timer.range')).toBe(
      'retry',
    );
    // A running timer's correction longer than the server's clock has seen since its start.
    expect(
      classifyFailure(
        refused('durationSeconds', 'must fit between startTime and now'),
        'timer.update',
      ),
    ).toBe('retry');
    expect(classifyFailure(refused('taskTitle', 'must not be blank'), 'task.update')).toBe(
      'permanent',
    );
    expect(classifyFailure(refused('durationSeconds', 'must be ≥ 0'), 'timer.update')).toBe(
      'permanent',
    );
  });

  it('treats a 404 on any delete or move as a conflict, on any create as permanent', () => {
    const byEffect = (k: MutationKind) => classifyFailure(err('not-found', 404), k);
    for (const k of mutationKindNames)
      expect(byEffect(k), k).toBe(
        k.endsWith('create') ||
          k === 'attachment.upload' ||
          k === 'timer.start' ||
          k === 'timer.range' ||
          k === 'timer.manual'
          ? 'permanent'
          : 'conflict',
      );
  });

  it('treats anything that is not an API error as permanent', () => {
    expect(classifyFailure(new Error('boom'), 'task.update')).toBe('permanent');
    expect(classifyFailure('nope', 'task.create')).toBe('permanent');
  });
});

describe('outboxError', () => {
  it('keeps kind, status, the server message and field errors', () => {
    const e = new ApiClientError({
      kind: 'validation',
      status: 400,
      message: 'taskTitle: must not be blank',
      operationId: 'createTask',
      fieldErrors: [{ field: 'taskTitle', message: 'must not be blank' }],
    });
    expect(outboxError(e, 'permanent')).toEqual({
      kind: 'validation',
      failure: 'permanent',
      status: 400,
      message: 'taskTitle: must not be blank',
      fieldErrors: [{ field: 'taskTitle', message: 'must not be blank' }],
    });
    expect(outboxError(new Error('file gone'), 'permanent')).toEqual({
      kind: 'local',
      failure: 'permanent',
      message: 'file gone',
    });
  });
});
