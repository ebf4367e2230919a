/**
 * Prism's validating proxy (the server behind `prism proxy <document> <upstream>`), started
 * in this process on 127.0.0.1 port 0 in front of an upstream, recording what it reports:
 * every request and every answer that passes through it is checked against the document, and
 * each violation is kept with the request it came from. Violations do not change the answer
 * (no `--errors`): a run reports them all at once instead of failing at the first.
 */
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';

const require = createRequire(import.meta.url);

/** The few members of Prism's packages used here (they ship CommonJS with loose types). */
interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}
interface PrismHttpServer {
  createServer(
    operations: unknown[],
    options: { cors: boolean; config: Record<string, unknown>; components: { logger: unknown } },
  ): PrismServer;
}
const { createServer } = require('@stoplight/prism-http-server') as PrismHttpServer;
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http') as {
  getHttpOperationsFromSpec(document: object): Promise<unknown[]>;
};
const { createLogger } = require('@stoplight/prism-core') as {
  createLogger(name: string, options: object, destination: Pick<Writable, 'write'>): unknown;
};

export interface Violation {
  /** `METHOD /path` of the request it was found in. */
  request: string;
  /** Prism's words: `request.body.files …` or `response.body.data.deletedBy …`. */
  message: string;
}

export interface PrismProxy {
  url: string;
  /** Every violation reported so far, in order. */
  violations: Violation[];
  close(): Promise<void>;
}

interface LogLine {
  msg?: string;
  input?: { method: string; url: { path: string } };
}

export const startPrismProxy = async (document: object, upstream: string): Promise<PrismProxy> => {
  // Prism resolves $refs in place: a copy keeps the caller's document as it was.
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  const violations: Violation[] = [];
  // Requests are answered one after another here, so the last one received is the one a
  // violation belongs to.
  let request = '';
  const logger = createLogger(
    'prism',
    { level: 'info' },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as LogLine;
        if (entry.input) request = `${entry.input.method.toUpperCase()} ${entry.input.url.path}`;
        if (entry.msg?.startsWith('Violation: '))
          violations.push({ request, message: entry.msg.slice('Violation: '.length) });
        return true;
      },
    },
  );
  const server = createServer(operations, {
    cors: false,
    config: {
      isProxy: true,
      upstream: new URL(upstream),
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: false,
      mock: { dynamic: false },
    },
    components: { logger },
  });
  const url = await server.listen(0, '127.0.0.1');
  return { url, violations, close: () => server.close() };
};
