import { parseArgs } from 'node:util';
import { startServer } from './app';
import { knownQuirks, type Quirk } from './deps';
import { parseFaultSpec } from './faults';
import { parseSeed } from './seed';

const usage = `usage: npm run server -- [--port N] [--data DIR] [--seed demo|empty|bench:N]
                          [--faults SPEC] [--admin] [--quirk NAME] [--access-ttl SECONDS]
  --faults "5xx=0.1,reset=0.05,429=0.05,drop=0,malformed=0,gone=0,hold=0,retryAfter=1,latency=20-200,seed=1"
  --quirk  ${knownQuirks.join(' | ')}`;

const main = async () => {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string' },
      seed: { type: 'string', default: 'empty' },
      faults: { type: 'string' },
      admin: { type: 'boolean', default: false },
      quirk: { type: 'string', multiple: true, default: [] },
      'access-ttl': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port ${values.port} is not a port number`);
  const quirks = values.quirk.map((q) => {
    if (!knownQuirks.includes(q as Quirk))
      throw new Error(`unknown --quirk ${q}; known: ${knownQuirks.join(', ')}`);
    return q as Quirk;
  });
  const seed = parseSeed(values.seed);
  const accessTtlSec =
    values['access-ttl'] === undefined ? undefined : Number(values['access-ttl']);
  if (accessTtlSec !== undefined && (!Number.isInteger(accessTtlSec) || accessTtlSec < 1))
    throw new Error('--access-ttl must be a positive number of seconds');

  const server = await startServer({
    dataDir: values.data ?? null,
    port,
    host: values.host,
    admin: values.admin,
    quirks,
    ...(values.faults ? { faults: parseFaultSpec(values.faults) } : {}),
    ...(accessTtlSec ? { accessTtlSec } : {}),
    checkResponses: seed.kind !== 'bench',
    seed,
  });
  if (server.seeded) process.stdout.write(`${server.seeded}\n`);
  process.stdout.write(`listening on ${server.url}\n`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}\n`);
  process.exit(2);
});
