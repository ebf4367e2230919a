import { z } from 'zod';
import { bridgeResponse } from '../../shared/bridge/define';

/**
 * Messages between the UI-side thread and the host worker. Both ends are ours, but each still
 * parses what it receives: a message of the wrong shape is a bug to report, not to act on.
 */
export const toWorker = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('call'),
    id: z.number().int(),
    method: z.string(),
    input: z.unknown(),
  }),
  z.object({
    type: z.literal('vault-result'),
    id: z.number().int(),
    ok: z.boolean(),
    value: z.string().nullable(),
    error: z.string().optional(),
  }),
  z.object({ type: z.literal('close') }),
]);
export type ToWorker = z.infer<typeof toWorker>;

export const fromWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('result'), id: z.number().int(), response: bridgeResponse }),
  z.object({ type: z.literal('event'), event: z.string(), payload: z.unknown() }),
  z.object({
    type: z.literal('vault'),
    id: z.number().int(),
    op: z.enum(['read', 'write', 'clear']),
    secret: z.string().optional(),
  }),
  z.object({ type: z.literal('log'), message: z.string(), error: z.string().optional() }),
  z.object({ type: z.literal('closed') }),
]);
export type FromWorker = z.infer<typeof fromWorker>;
