import { defineConfig } from 'vitest/config';

/**
 * Two workers: most files wait on servers, child processes or Chromium, not on this process
 * (issue 25). Files that judge real time (a frame's cost, a clock's error, a deadline) run one
 * at a time after the rest, so that the other worker's load cannot fail them.
 */
const timed = [
  'test/e2e/frame-cost.test.ts',
  'test/sync/timer-truth.test.ts',
  'test/sync/client-clock.test.ts',
  'test/sync/server-clock.test.ts',
  'server/seed/seed.db.test.ts',
  'test/packaging/start-exit.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // One id per run, for work done once for all workers (test/e2e/support.ts buildRenderer).
    provide: { runId: `${process.pid}-${Date.now()}` },
    reporters: ['default', './test/run/slowest-files.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: [
            '{shared,sync,main,renderer,server,test}/**/*.test.ts',
            'renderer/**/*.test.tsx',
          ],
          exclude: [...timed, '**/node_modules/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'timed',
          include: timed,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
