/**
 * The fill's worker from a bundle, as the app ships it (main/electron/build.ts bundles the host
 * with `fill-worker` as an entry of its own beside it): found next to the bundle, no tsx.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const here = import.meta.dirname;
// Inside the repository, so that the bundle's package imports resolve to its node_modules.
const cache = resolve(here, '../../node_modules/.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'wt-fill-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const host = `
import { startFillThread } from './fill-thread';
import { openPageDecoder } from './page-decoder';
const thread = startFillThread();
const decoder = openPageDecoder(thread);
const body = Buffer.from(JSON.stringify({
  success: true, message: 'OK', code: 200, timestamp: '2026-01-01T00:00:00Z',
  data: { items: [{ taskId: 3, taskTitle: 'bundled' }], nextCursor: null, serverTime: 1 },
}));
const page = await decoder.decode({ operationId: 'bulkTasks', response: { status: 200, headers: {}, body }, receivedAt: 1 }).page;
process.stdout.write(JSON.stringify({ threaded: decoder.threaded, ids: page.ids }));
await thread?.close();
`;

describe('the fill worker in a bundle', () => {
  it('is found beside the bundle and decodes there', async () => {
    const common = {
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'silent',
    } as const;
    await build({
      ...common,
      stdin: { contents: host, resolveDir: here, sourcefile: 'host.ts', loader: 'ts' },
      outfile: join(out, 'host.js'),
    });
    const alone = JSON.parse(execFileSync(process.execPath, [join(out, 'host.js')]).toString());
    // Without the worker's own bundle beside it, pages are decoded on the pulling thread.
    expect(alone).toEqual({ threaded: false, ids: [3] });
    await build({
      ...common,
      entryPoints: { 'fill-worker': join(here, 'fill-worker.ts') },
      outdir: out,
    });
    const bundled = JSON.parse(execFileSync(process.execPath, [join(out, 'host.js')]).toString());
    expect(bundled).toEqual({ threaded: true, ids: [3] });
  }, 60_000);
});
