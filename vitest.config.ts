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
          // Node-only files that leave no state behind share their worker's module cache: the
          // imports (sync/, server/ and zod's schemas, most of each file's start) load once
          // per worker rather than once per file. What changes globals (a DOM, the stand-in
          // Electron, process.env) stays isolated below.
          name: 'shared-imports',
          include: [
            '{shared,sync,server}/**/*.test.ts',
            'test/{bridge,conformance,contract,security,sync}/**/*.test.ts',
            'test/*.test.ts',
          ],
          exclude: [...timed, '**/node_modules/**'],
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'parallel',
          include: [
            '{main,renderer}/**/*.test.ts',
            'renderer/**/*.test.tsx',
            'test/{e2e,packaging}/**/*.test.ts',
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
