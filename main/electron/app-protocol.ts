import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { APP_HOST, APP_ORIGIN, APP_SCHEME } from './app-origin';
import { cspHeaderValue } from './window-security';

/**
 * The `app://` protocol: the window loads the renderer bundle from `app://worktray/…`, a
 * standard, secure origin of its own (not `file://`, which would give the page every file on
 * disk as same-origin). Only files under the bundle's folder are served.
 */
export { APP_ENTRY_URL, APP_HOST, APP_ORIGIN, APP_SCHEME } from './app-origin';

/** Privileges for `protocol.registerSchemesAsPrivileged` (before the app is ready). */
export const appSchemePrivileges = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  bypassCSP: false,
  corsEnabled: false,
  allowServiceWorkers: false,
  stream: false,
} as const;

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export type AppPathResolution =
  | { kind: 'file'; path: string }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'not-found' };

const isInside = (root: string, candidate: string): boolean => {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Maps a request URL to a file under `rootDir` (an absolute folder). Paths without an extension
 * are client-side routes and get `index.html`. Encoded dots and separators are decoded before the
 * check, so `%2e%2e%2f` climbs no higher than `../` does.
 */
export const resolveAppPath = (rootDir: string, requestUrl: string): AppPathResolution => {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { kind: 'forbidden', reason: 'not a URL' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
    return { kind: 'forbidden', reason: `not ${APP_ORIGIN}` };
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { kind: 'forbidden', reason: 'malformed escape' };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) {
    return { kind: 'forbidden', reason: 'illegal character in path' };
  }
  // Normalizing would clamp `/../x` to `/x`; a climbing path is refused outright instead.
  if (pathname.split('/').includes('..')) return { kind: 'forbidden', reason: 'climbs out' };
  const root = path.resolve(rootDir);
  const wanted = pathname === '/' || path.posix.extname(pathname) === '' ? '/index.html' : pathname;
  const candidate = path.resolve(root, `.${path.posix.normalize(wanted)}`);
  if (!isInside(root, candidate)) return { kind: 'forbidden', reason: 'outside the bundle' };
  if (!(path.extname(candidate).toLowerCase() in contentTypes)) return { kind: 'not-found' };
  return { kind: 'file', path: candidate };
};

const securityHeaders = (): Record<string, string> => ({
  'content-security-policy': cspHeaderValue(),
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
});

const plain = (status: number, text: string) =>
  new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...securityHeaders() },
  });

/**
 * The handler `protocol.handle('app', …)` runs. Symlinks are resolved before serving, so a link
 * inside the bundle cannot expose a file outside it.
 */
export const createAppProtocolHandler =
  (rootDir: string) =>
  async (request: Request): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'GET only');
    const resolved = resolveAppPath(rootDir, request.url);
    if (resolved.kind === 'forbidden') return plain(403, resolved.reason);
    if (resolved.kind === 'not-found') return plain(404, 'not found');
    try {
      const root = await realpath(path.resolve(rootDir));
      const real = await realpath(resolved.path);
      if (!isInside(root, real)) return plain(403, 'outside the bundle');
      const body = await readFile(real);
      const type = contentTypes[path.extname(real).toLowerCase()] ?? 'application/octet-stream';
      return new Response(request.method === 'HEAD' ? null : body, {
        status: 200,
        headers: { 'content-type': type, ...securityHeaders() },
      });
    } catch {
      return plain(
        404,
        path.basename(resolved.path) === 'index.html'
          ? 'The UI is not built: run `npx vite build --config renderer/vite.config.ts`.'
          : 'not found',
      );
    }
  };
