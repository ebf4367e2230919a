// Moves a staged first fill in its own process and kills itself with SIGKILL at a given
// point, so that a test can check what a restart makes of it (first-fill.db.test.ts).
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { deferredIndexes } from '../db/queries/tasks-stage-indexes';
import { Replica } from '../db/replica';
import { startFillThread } from './fill-thread';
import { mergeFirstFill } from './first-fill';

const [file, point] = process.argv.slice(2);
if (!file || (point !== 'mid-move' && point !== 'mid-build'))
  throw new Error('usage: first-fill-crash-child FILE mid-move|mid-build');
const replica = Replica.openFile(file);
const thread = startFillThread();
const kill = () => process.kill(process.pid, 'SIGKILL');

/** Kills once the worker has built one index of those dropped (and not the others yet). */
const killMidBuild = async () => {
  const dropped = deferredIndexes(replica.db).length;
  for (;;) {
    const left = deferredIndexes(replica.db).length;
    if (left > 0 && left < dropped) kill();
    await yieldToLoop();
  }
};

await mergeFirstFill(replica, {
  thread,
  firstChunk: 2,
  writeBudgetMs: 0,
  onMerged: (merged, total) => {
    if (point === 'mid-move') kill();
    else if (merged === total) void killMidBuild();
  },
});
process.stdout.write('not killed\n');
