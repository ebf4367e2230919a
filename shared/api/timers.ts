import { z } from 'zod';
import { epochMs, id, opt } from './common';

export const timerState = z.enum(['RUNNING', 'PAUSED', 'STOPPED']);
export type TimerState = z.infer<typeof timerState>;
export const billingStatus = z.enum(['BILLABLE', 'NON_BILLABLE']);
export type BillingStatus = z.infer<typeof billingStatus>;

/** TimeTrackerDto. Timestamps in epoch ms; durationSeconds counts running time only. */
export const timerRecord = z.looseObject({
  trackId: id,
  taskId: id,
  projectId: opt(id),
  userId: id,
  state: timerState,
  startTime: epochMs,
  endTime: opt(epochMs),
  durationSeconds: z.number().int().min(0),
  billingStatus: opt(billingStatus),
  notes: opt(z.string()),
  createdTime: opt(epochMs),
  modifiedTime: opt(epochMs),
});
export type TimerRecord = z.infer<typeof timerRecord>;

const notes = z.string().max(5_000);

export const timerRequest = z.object({
  notes: notes.nullish(),
  billingStatus: billingStatus.optional(),
  startTime: epochMs.optional(),
  endTime: epochMs.optional(),
});
export type TimerRequest = z.infer<typeof timerRequest>;

export const timerUpdateRequest = z.object({
  billingStatus,
  notes: notes.nullish(),
  startTime: epochMs,
  durationSeconds: z.number().int().min(0),
});
export type TimerUpdateRequest = z.infer<typeof timerUpdateRequest>;

export const rangeTimerRequest = z
  .object({ startTime: epochMs, endTime: epochMs })
  .refine((r) => r.endTime > r.startTime, {
    message: 'must be after startTime',
    path: ['endTime'],
  });
export type RangeTimerRequest = z.infer<typeof rangeTimerRequest>;

export const manualTimerRequest = z
  .object({
    hours: z.number().int().min(0).max(24),
    minutes: z.number().int().min(0).max(59),
    startTime: epochMs,
    billingStatus,
    notes: notes.nullish(),
  })
  .refine((r) => r.hours * 60 + r.minutes > 0, {
    message: 'must be longer than zero',
    path: ['minutes'],
  });
export type ManualTimerRequest = z.infer<typeof manualTimerRequest>;

export const timesheetQuery = z.object({
  from: z.coerce.number().int(),
  to: z.coerce.number().int(),
});

/** Timesheets: not shown by the spec or the contract; fixed here. */
export const timesheet = z.looseObject({
  from: epochMs,
  to: epochMs,
  totalSeconds: z.number().int().min(0),
  entries: z.array(timerRecord),
});
export type Timesheet = z.infer<typeof timesheet>;

export const timesheetSummary = z.looseObject({
  projectId: id,
  from: epochMs,
  to: epochMs,
  totalSeconds: z.number().int().min(0),
  billableSeconds: z.number().int().min(0),
  nonBillableSeconds: z.number().int().min(0),
  byUser: z.array(z.looseObject({ userId: id, seconds: z.number().int().min(0) })),
  byTask: z.array(z.looseObject({ taskId: id, seconds: z.number().int().min(0) })),
});
export type TimesheetSummary = z.infer<typeof timesheetSummary>;
