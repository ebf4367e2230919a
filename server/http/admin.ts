import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServerDeps } from '../deps';
import { faultRatesSchema, faultRuleSchema, parseFaultSpec } from '../faults';
import { apiErrorBody } from './errors';
import { isLoopbackPeer } from './host-guard';

const faultsBody = z.object({
  spec: z.string().optional(),
  rules: z.array(faultRuleSchema).max(100).optional(),
  clear: z.boolean().optional(),
  /** Sends every answer a `hold` keeps back. */
  release: z.boolean().optional(),
});
const clockBody = z.union([
  z.object({ offsetMs: z.number().int() }),
  z.object({ nowMs: z.number().int() }),
  z.object({ advanceMs: z.number().int() }),
]);

/**
 * Test-only controls under /__admin/ (registered only with --admin): faults and the clock.
 * Only a peer on this machine may use them, even when the server listens beyond loopback
 * (they stall, cut and slow every answer). The state reports how many answers a `hold` keeps
 * (a test waits for it before killing its client) and the faults that fired (`hits`).
 */
export const registerAdmin = (app: FastifyInstance, deps: ServerDeps) => {
  const bad = (path: string, message: string) => apiErrorBody(400, message, path, deps.clock.now());
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/__admin/') || isLoopbackPeer(req.socket.remoteAddress)) return;
    return reply
      .code(403)
      .send(
        apiErrorBody(403, 'the admin routes answer only this machine', req.url, deps.clock.now()),
      );
  });
  app.get('/__admin/state', async () => ({
    faults: deps.faults.state(),
    clockOffsetMs: deps.clock.offset(),
    now: deps.clock.now(),
  }));
  app.put('/__admin/faults', async (req, reply) => {
    const parsed = faultsBody.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send(bad(req.url, parsed.error.message));
    try {
      if (parsed.data.clear) deps.faults.clear();
      if (parsed.data.spec !== undefined)
        deps.faults.setRates(
          parsed.data.spec ? parseFaultSpec(parsed.data.spec) : faultRatesSchema.parse({}),
        );
      if (parsed.data.rules) deps.faults.addRules(parsed.data.rules);
      if (parsed.data.release) deps.faults.release();
    } catch (error) {
      return reply.code(400).send(bad(req.url, (error as Error).message));
    }
    return deps.faults.state();
  });
  app.put('/__admin/clock', async (req, reply) => {
    const parsed = clockBody.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send(bad(req.url, parsed.error.message));
    const b = parsed.data;
    if ('offsetMs' in b) deps.clock.setOffset(b.offsetMs);
    else if ('nowMs' in b) deps.clock.setOffset(b.nowMs - (deps.clock.now() - deps.clock.offset()));
    else deps.clock.setOffset(deps.clock.offset() + b.advanceMs);
    return { now: deps.clock.now(), clockOffsetMs: deps.clock.offset() };
  });
};
