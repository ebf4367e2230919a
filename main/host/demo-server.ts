/**
 * The demo default: the reference server embedded in the host, with the demo seed, on a
 * loopback port. This is the one file of main/ that imports server/ (an exception listed in
 * test/layering.test.ts): running it in-process needs no second runtime (tsx) in a packaged
 * app, where a spawned `server/cli.ts` would.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type RunningServer, startServer } from '../../server/app';
import type { DemoLauncher } from '../services/session';

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      probe.close(() => resolve(true));
    });
  });

/**
 * Starts the server on first use, with its database in `<dataDir>`. It listens on the port of
 * the last launch when that is free: the replica file is named by the server's origin, so the
 * same port keeps the same replica (and its queued offline edits) across launches.
 */
export const embeddedDemoServer = (dataDir: string): DemoLauncher => {
  let running: Promise<RunningServer> | null = null;
  const portFile = join(dataDir, 'port');
  const start = async (): Promise<RunningServer> => {
    await mkdir(dataDir, { recursive: true });
    const last = Number((await readFile(portFile, 'utf8').catch(() => '')).trim());
    const port =
      Number.isInteger(last) && last > 1024 && last < 65536 && (await portFree(last)) ? last : 0;
    const server = await startServer({ dataDir, port, host: '127.0.0.1', seed: { kind: 'demo' } });
    await writeFile(portFile, `${server.port}\n`);
    return server;
  };
  return {
    async start() {
      running ??= start().catch((e: unknown) => {
        running = null;
        throw e;
      });
      return (await running).url;
    },
    async close() {
      const r = running;
      running = null;
      if (r) await (await r.catch(() => null))?.close();
    },
  };
};
