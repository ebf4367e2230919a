import { type FileHandle, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Types of what a Vite build emits; anything else goes out as bytes. */
const assetTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page's policy: scripts and connections to this origin only, no frames, no plugins, no
 * forms posting elsewhere. Inline styles are allowed (the UI sets style attributes).
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Headers every answer carries: the secret in the page URL must not leak through a Referer. */
export const baseHeaders = {
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/**
 * The file under `root` a URL path names, or null when it would leave `root` (`..`, an encoded
 * separator, a NUL) or cannot be decoded.
 */
export const resolveStaticPath = (root: string, urlPath: string): string | null => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const base = resolve(root);
  const target = resolve(base, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  return target === base || target.startsWith(base + sep) ? target : null;
};

const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Worktray</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem">
<h1>Worktray</h1>
<p>The user interface is not built yet. Run <code>npx vite build --config renderer/vite.config.ts</code>
(or <code>npm start</code>, which builds it when it can) and reload this page.</p>
<p>The host and its bridge are running: <code>POST /bridge/&lt;method&gt;</code>.</p>
</body></html>`;

const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
  res.writeHead(status, {
    ...baseHeaders,
    'content-type': type,
    'content-security-policy': contentSecurityPolicy,
    'cache-control': 'no-store',
  });
  res.end(body);
};

/** A regular file opened for reading, with its size; null when there is none to read. */
export const openRegularFile = async (
  path: string,
): Promise<{ handle: FileHandle; size: number } | null> => {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return null;
  // The size of what was opened, not of what a path named a moment before (it may be swapped).
  const info = await handle.stat().catch(() => null);
  if (info?.isFile()) return { handle, size: info.size };
  await handle.close().catch(() => {});
  return null;
};

/**
 * Streams an opened file as the body (headers written by the caller) and closes it. A file
 * that fails while read (truncated, a disk error) cuts this answer, which the client sees as a
 * short body; the error must never escape, as an unhandled stream error ends the process.
 */
export const streamFile = async (handle: FileHandle, res: ServerResponse): Promise<void> => {
  try {
    await pipeline(handle.createReadStream(), res);
  } catch {
    res.destroy();
  } finally {
    await handle.close().catch(() => {});
  }
};

/**
 * Serves the built renderer: `/` is index.html, a path without an extension falls back to it
 * (client-side routes), anything outside the folder is refused.
 */
export const serveStatic = async (
  root: string | null,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<void> => {
  if (root === null) return send(res, 200, 'text/html; charset=utf-8', notBuiltPage);
  const wanted = pathname === '/' ? '/index.html' : pathname;
  const file = resolveStaticPath(root, wanted);
  if (!file) return send(res, 400, 'text/plain; charset=utf-8', 'bad path');
  let target = file;
  let opened = await openRegularFile(target);
  if (!opened && extname(wanted) === '') {
    target = resolve(root, 'index.html');
    opened = await openRegularFile(target);
  }
  if (!opened) {
    // Browsers ask for it unprompted; an empty answer keeps their consoles clean.
    if (pathname === '/favicon.ico') {
      res.writeHead(204, baseHeaders);
      return void res.end();
    }
    if (target.endsWith(`${sep}index.html`))
      return send(res, 200, 'text/html; charset=utf-8', notBuiltPage);
    return send(res, 404, 'text/plain; charset=utf-8', 'not found');
  }
  const type = assetTypes[extname(target).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    ...baseHeaders,
    'content-type': type,
    'content-length': opened.size,
    'content-security-policy': contentSecurityPolicy,
    'cache-control': target.endsWith('.html') ? 'no-store' : 'public, max-age=300',
  });
  if (req.method === 'HEAD') {
    await opened.handle.close().catch(() => {});
    return void res.end();
  }
  await streamFile(opened.handle, res);
};
