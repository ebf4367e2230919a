import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,sync,main,renderer,server,test}/**/*.test.ts', 'renderer/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
