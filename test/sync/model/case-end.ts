/**
 * The end of a case: faults healed (the clock keeps its skew: the engine must cope with it),
 * the running timer stopped by the user, then each org the case opened is opened again,
 * drained and checked against the model; an org never opened is checked on the server alone.
 * A failure throws with everything needed to understand it.
 */

import { CaseFailure, type CaseRun } from './case-run';
import { checkOrg, type OrgView, type Problem } from './check';
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
    const running = model.activeTimer(org);
    if (running?.state === 'RUNNING') {
      const r = await run.edit(
        { kind: 'timer.stop', trackId: running.id },
        `stop timer ${running.key} (end)`,
      );
      if (r) model.apply({ type: 'timer-move', key: running.key, move: 'stop', at: r.at });
    }
    const child = run.child();
    const drain = await child.request({ cmd: 'drain', maxMs: run.ctx.drainMs });
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
  const want = model.expectations(run.offsetMs);
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
      `case: ${run.quirky ? 'server ignores Idempotency-Key' : 'server honours Idempotency-Key'}, server clock ${run.offsetMs >= 0 ? '+' : ''}${run.offsetMs} ms, prefix ${run.prefix}`,
      'actions (with what each did):',
      ...run.log.map((l) => `  ${l}`),
      '',
      'model vs server vs replica:',
      ...tables,
    ].join('\n'),
  );
};
