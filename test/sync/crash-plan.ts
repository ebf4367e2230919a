/**
 * The crash test's plan: 500 edits named by titles, the same in every process, and the state
 * the server must end in once all of them were applied exactly once.
 */
import { createRng } from '../../server/seed/rng';

export type PlanEdit =
  | { op: 'create'; title: string }
  | { op: 'priority'; title: string; priority: 'Low' | 'Medium' | 'High' }
  | { op: 'check'; title: string; name: string }
  | { op: 'toggle'; title: string; name: string }
  | { op: 'delete'; title: string };

export const PLAN_SIZE = 500;

export const makePlan = (prefix: string, seed = 7): PlanEdit[] => {
  // The seeds' generator: parent and child draw the same plan.
  const random = createRng(seed).next;
  const live: string[] = [];
  const checks = new Map<string, string[]>();
  const plan: PlanEdit[] = [];
  let n = 0;
  while (plan.length < PLAN_SIZE) {
    const r = random();
    const title = live[Math.floor(random() * live.length)];
    if (live.length < 3 || r < 0.3 || title === undefined) {
      const t = `${prefix}${++n}`;
      live.push(t);
      checks.set(t, []);
      plan.push({ op: 'create', title: t });
    } else if (r < 0.5) {
      const priority = (['Low', 'Medium', 'High'] as const)[Math.floor(random() * 3)] ?? 'Low';
      plan.push({ op: 'priority', title, priority });
    } else if (r < 0.7) {
      const name = `c${++n}`;
      checks.get(title)?.push(name);
      plan.push({ op: 'check', title, name });
    } else if (r < 0.95) {
      const names = checks.get(title) ?? [];
      const name = names[Math.floor(random() * names.length)];
      if (name !== undefined) plan.push({ op: 'toggle', title, name });
    } else {
      live.splice(live.indexOf(title), 1);
      checks.delete(title);
      plan.push({ op: 'delete', title });
    }
  }
  return plan;
};

export interface ExpectedTask {
  title: string;
  priority: string;
  checks: { name: string; completed: boolean }[];
}

export const expectedState = (plan: readonly PlanEdit[]): ExpectedTask[] => {
  const tasks = new Map<string, { priority: string; checks: Map<string, boolean> }>();
  for (const e of plan) {
    const t = tasks.get(e.title);
    switch (e.op) {
      case 'create':
        tasks.set(e.title, { priority: 'None', checks: new Map() });
        break;
      case 'priority':
        if (t) t.priority = e.priority;
        break;
      case 'check':
        t?.checks.set(e.name, false);
        break;
      case 'toggle':
        t?.checks.set(e.name, !(t.checks.get(e.name) ?? false));
        break;
      case 'delete':
        tasks.delete(e.title);
        break;
    }
  }
  return [...tasks]
    .map(([title, t]) => ({
      title,
      priority: t.priority,
      checks: [...t.checks]
        .map(([name, completed]) => ({ name, completed }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => a.title.localeCompare(b.title));
};
