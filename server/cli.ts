import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startServer } from './app';
import { knownQuirks, type Quirk } from './deps';
import { parseFaultSpec } from './faults';
import { isLoopbackBind } from './http/host-guard';
import { parseSeed } from './seed';

const usage = `usage: npm run server -- [--port N] [--data DIR] [--seed demo|empty|bench:N]
                          [--faults SPEC] [--admin] [--quirk NAME] [--access-ttl SECONDS]
                          [--host ADDRESS] [--allow-host NAME]...
  --host   the address to listen on (default 127.0.0.1); beyond loopback, anyone on the
           network can reach the server: answered Host names are loopback, the --host address
           and each --allow-host NAME
  --faults "5xx=0.1,reset=0.05,429=0.05,drop=0,malformed=0,gone=0,hold=0,retryAfter=1,latency=20-200,seed=1"
  --quirk  ${knownQuirks.join(' | ')}`;

const beyondLoopbackWarning = (host: string, port: number) => `
********************************************************************************
WARNING: listening on ${host}:${port}, beyond loopback: anyone who can reach this
machine over the network can reach this server. Its demo accounts have public
passwords, and it speaks plain HTTP (passwords and tokens in clear). Use it only
on a network you trust; --host 127.0.0.1 keeps it on this machine.
********************************************************************************
`;

/** A DNS name, an IPv4 address or a bracketed IPv6 address, as a Host header carries it. */
const hostName = z
  .string()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9-]{1,63})*|\[[0-9a-f:.]+\])$/i);

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
      'allow-host': { type: 'string', multiple: true, default: [] },
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
  const allowedHosts = values['allow-host'].map((name) => {
    const parsed = hostName.safeParse(name);
    if (!parsed.success) throw new Error(`--allow-host ${name} is not a host name`);
    return parsed.data;
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
    allowedHosts,
    admin: values.admin,
    quirks,
    ...(values.faults ? { faults: parseFaultSpec(values.faults) } : {}),
    ...(accessTtlSec ? { accessTtlSec } : {}),
    checkResponses: seed.kind !== 'bench',
    seed,
  });
  if (!isLoopbackBind(values.host))
    process.stderr.write(beyondLoopbackWarning(values.host, server.port));
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
