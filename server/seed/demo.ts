import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPasswordForSeed } from '../auth/passwords';
import type { ServerDeps } from '../deps';
import { addComments, addTimers } from './demo-activity';
import { addAttachments } from './demo-attachments';
import { DemoContext } from './demo-context';
import { demoFiles } from './demo-files';
import { globex } from './demo-globex';
import { northwind } from './demo-northwind';
import { addNotifications } from './demo-notifications';
import { createUsers, seedOrg } from './demo-orgs';
import { createRng } from './rng';

/**
 * The demo data set (`--seed demo`): two orgs, a team, spaces, projects, ~300 tasks with
 * everything a task can carry. Deterministic: one seeded PRNG drives every choice, and every
 * time is relative to `deps.clock.now()`, so two runs with the same clock give the same rows
 * (password hashes aside: their salts are random).
 */

export const seedDemo = (deps: ServerDeps): string => {
  const started = performance.now();
  const { db } = deps;
  const now = deps.clock.now();
  const rng = createRng(0x5eed_de30);
  const hashes = {
    demo: hashPasswordForSeed('demo1234'),
    other: hashPasswordForSeed('other1234'),
    colleague: hashPasswordForSeed('welcome1234'),
  };

  // Files first: a row never points at a file that is not there.
  mkdirSync(deps.filesDir, { recursive: true });
  const files = demoFiles.map((f, i) => ({
    ...f,
    storedName: `demo-${String(i + 1).padStart(2, '0')}-${f.fileName}`,
  }));
  for (const f of files) writeFileSync(join(deps.filesDir, f.storedName), f.bytes);

  const counts = db.transaction(() => {
    // The order of these steps is part of the data set: each one draws from the same PRNG.
    const ctx = new DemoContext(db, now, rng);
    createUsers(ctx, hashes);
    seedOrg(ctx, northwind);
    seedOrg(ctx, globex);
    addAttachments(ctx, files);
    addTimers(ctx);
    addNotifications(ctx, addComments(ctx));
    return ctx.counts;
  })();

  const ms = Math.round(performance.now() - started);
  return (
    `demo seed: ${counts.orgs} orgs, ${counts.users} users, ${counts.spaces} spaces, ${counts.projects} projects, ` +
    `${counts.tasks} tasks (${counts.subtasks} subtasks), ${counts.checklistItems} checklist items, ` +
    `${counts.customValues} custom values, ${counts.attachments} attachments, ${counts.comments} comments, ` +
    `${counts.timers} timers, ${counts.notifications} notifications in ${ms} ms; sign in as demo@example.com / demo1234`
  );
};
