import { isIPv4 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiErrorBody } from './errors';

/** Loopback names every server answers to (the port is always its own). */
const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether a bind address keeps the server on this machine. */
export const isLoopbackBind = (host: string): boolean =>
  host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));

/** Whether a bind address is a wildcard (every interface): it names no host to answer as. */
export const isWildcardBind = (host: string): boolean =>
  host === '0.0.0.0' || host === '::' || host === '';

/** Whether the peer of a connection is this machine (127.0.0.0/8, ::1, IPv4-mapped 127/8). */
export const isLoopbackPeer = (address: string | undefined): boolean => {
  if (!address) return false;
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIPv4(v4) && v4.startsWith('127.');
};

const portOf = (app: FastifyInstance): number | null => {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : null;
};

/**
 * Refuses every request whose Host is not one of the server's own names at its own port.
 * A web page that points its own name at 127.0.0.1 (DNS rebinding) reaches the port but
 * sends its own name as Host: the browser's same-origin rule would let its script read the
 * answers. `extraNames` are names beyond loopback (the configured --host, --allow-host).
 */
export const registerHostGuard = (
  app: FastifyInstance,
  extraNames: readonly string[],
  now: () => number,
) => {
  const allowed = (req: FastifyRequest): boolean => {
    const host = req.headers.host?.toLowerCase();
    const port = portOf(app);
    if (!host || port === null) return false;
    const names = [...loopbackNames, ...extraNames.map((n) => n.toLowerCase())];
    return names.some((n) => host === `${n}:${port}` || (port === 80 && host === n));
  };
  app.addHook('onRequest', async (req, reply) => {
    if (allowed(req)) return;
    const path = req.url.split('?')[0] ?? req.url;
    return reply
      .code(421)
      .send(apiErrorBody(421, 'this server does not answer for that Host', path, now()));
  });
};
