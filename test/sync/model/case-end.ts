/**
 * The end of a case: faults healed (the clock keeps its skew: the engine must cope with it),
 * then each org the case opened is opened again, the second client syncs what it queued, the
 * user stops the running timer, the user's engine drains, the user resolves the conflicts the
 * second client's deletes caused (making some entities again, letting the rest go), and the
 * org is checked against the model; an org never opened is checked on the server alone.
 * A failure throws with everything needed to understand it.
 */

import { parseEntityKey } from '../../../sync/outbox';
import { CaseFailure, type CaseRun, clocksOf } from './case-run';
import { checkOrg, type OrgView, type Problem } from './check';
import type { DrainAnswer } from './protocol';
import { settleSecond } from './second-client';
import { healFaults, serverState } from './server-side';

export const endCase = async (run: CaseRun): Promise<void> => {
  const { model, ms, orgs } = run;
  healFaults(ms);
  const order = [run.current, 1 - run.current];
  const views: Omit<OrgView, 'server'>[] = [];
  const orgIds = orgs.map((o) => o.orgId);
  for (const org of order) {
    if (!run.opened.has(org)) {
      views.push({
        org,
        orgIds,
        status: null,
        drained: true,
        ids: null,
        replica: null,
      });
      continue;
    }
    if (org !== run.current) {
      await run.close();
      await run.open(org);
    }
    await settleSecond(run, org);
    const running = model.activeTimer(org);
    if (running?.state === 'RUNNING') {
      const r = await run.edit(
        { kind: 'timer.stop', trackId: running.id },
        `stop timer ${running.key} (end)`,
      );
      if (r) model.apply({ type: 'timer-move', key: running.key, move: 'stop', at: r.at });
    }
    const child = run.child();
    const drain = await settleConflicts(
      run,
      await child.request({ cmd: 'drain', maxMs: run.ctx.drainMs }),
    );
    const ids = await child.request({ cmd: 'ids' });
    const replica = await child.request({ cmd: 'dump' });
    run.log.push(`end of org ${'AB'[org]}: drained ${drain.drained} in ${drain.rounds} rounds`);
    views.push({
      org,
      orgIds,
      status: drain.status,
      drained: drain.drained,
      ids,
      replica,
    });
  }
  const server = serverState(ms, orgIds);
  const want = model.expectations();
  const problems: Problem[] = [];
  const tables: string[] = [];
  for (const v of views.sort((a, b) => a.org - b.org)) {
    const { problems: p, table } = checkOrg(want, { ...v, server });
    problems.push(...p);
    tables.push(`org ${'AB'[v.org]} (server org ${orgIds[v.org]}):`, ...table.map((l) => `  ${l}`));
  }
  if (problems.length === 0) return;
  const rules = [...new Set(problems.map((p) => p.rule))].sort();
  throw new CaseFailure(
    [
      `broken: rule ${rules.join(', rule ')}`,
      ...problems.map((p) => `- [${p.rule}] ${p.message}`),
      '',
      `case: ${run.quirky ? 'server ignores Idempotency-Key' : 'server honours Idempotency-Key'}, ${clocksOf(run.skews.server, run.skews.client, run.clocks)}, prefix ${run.prefix}`,
      'actions (with what each did):',
      ...run.log.map((l) => `  ${l}`),
      '',
      'model vs server vs replica:',
      ...tables,
    ].join('\n'),
  );
};

/** Edit kinds that make their entity: letting one go means it never was. */
const makes = (kind: string) =>
  kind.endsWith('.create') || kind === 'attachment.upload' || kind === 'timer.start';

/**
 * The user's failed edits of what the second client deleted, resolved as the user would: an
 * entity the second client deleted made again (every other one of those asked; before the
 * rest, so what hangs on it comes back with it), then the rest let go; drained after each
 * pass. Failures of anything else stay for the check to report.
 */
const settleConflicts = async (run: CaseRun, drained: DrainAnswer): Promise<DrainAnswer> => {
  const { model } = run;
  const child = run.child();
  let d = drained;
  for (let round = 0; round < 6 && d.status.failed.length > 0; round++) {
    const ids = await child.request({ cmd: 'ids' });
    const ours = d.status.failed.flatMap((f) => {
      const { kind, id } = parseEntityKey(f.entity);
      const local = ids.mappings.find((m) => m.kind === kind && m.server === id)?.local;
      const key =
        model.byId(kind, id) ?? (local === undefined ? undefined : model.byId(kind, local));
      if (key === undefined) return [];
      // A create the server refused because what it goes in was gone (the second client's
      // delete landed first), in a task the user then deleted too (seed 1185930632).
      const held = model.entities.get(key) ?? model.timers.get(key) ?? model.uploads.get(key);
      const holder = held?.task ?? (held && 'within' in held ? held.within : null) ?? null;
      const refusedIn =
        makes(f.kind) &&
        (f.error as { kind?: string } | null)?.kind === 'not-found' &&
        holder !== null &&
        !model.isAlive(holder);
      return model.goneByWriter(key) || refusedIn ? [{ f, key }] : [];
    });
    if (ours.length === 0) break;
    const again = ours.filter(({ f, key }) => {
      const ent = model.entities.get(key);
      const parentAlive = ent?.task == null || model.isAlive(ent.task);
      return f.state === 'conflict' && ent?.goneAt != null && parentAlive && f.mutationId % 2 === 0;
    });
    let made = 0;
    for (const { f, key } of again) {
      try {
        const r = await child.request({
          cmd: 'resolve',
          mutationId: f.mutationId,
          choice: 'recreate',
        });
        if (!r) continue;
        model.apply({ type: 'recreate', key, id: r.id, at: Date.now() });
        run.log.push(`end: made ${key} again as ${r.id} (edit ${f.mutationId})`);
        made++;
      } catch (error) {
        run.log.push(`end: cannot make ${key} again: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    if (made === 0)
      for (const { f, key } of ours) {
        await child.request({ cmd: 'resolve', mutationId: f.mutationId, choice: 'discard' });
        if (makes(f.kind)) model.apply({ type: 'let-go', key, at: Date.now() });
        run.log.push(`end: let go of ${f.kind} ${f.entity} (${key}, ${f.state})`);
      }
    d = await child.request({ cmd: 'drain', maxMs: run.ctx.drainMs });
  }
  return d;
};
