/**
 * The loopback HTTP layer shared by Thoth's local web servers (the GUI, `thoth gui`, and the
 * distributed runner's status page, `thoth match-status --page`): listening on 127.0.0.1 (or, when
 * a person names one, another address of this machine), the per-run token (in the URL or a
 * cookie), the `Host` and `Origin` checks against DNS rebinding and foreign pages, the security
 * headers, the MIME types, and the mapping of a request path to a static file that cannot leave
 * its folder.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';

/** The address the servers listen on unless told otherwise. */
export const LOOPBACK_HOST = '127.0.0.1';

/** An address as a URL or a `Host` header writes it: IPv6 in brackets. */
export const urlHost = (address: string): string => (isIP(address) === 6 ? `[${address}]` : address);

/**
 * The addresses of this machine that a server listening on `listen` answers on: every interface's
 * for a wildcard (`0.0.0.0`: the IPv4 ones; `::`: all), else `listen` itself (link-local IPv6
 * addresses, which need a zone, are left out). Loopback first.
 */
export function listenAddresses(listen: string): string[] {
  if (listen !== '0.0.0.0' && listen !== '::') return [listen];
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family === 'IPv6' && (listen === '0.0.0.0' || a.scopeid !== 0)) continue;
      out.push(a.address);
    }
  }
  return out.sort((a, b) => Number(isLoopback(b)) - Number(isLoopback(a)));
}

const isLoopback = (address: string): boolean => address === '::1' || address.startsWith('127.');

/**
 * The `Host` values (with the port) a request to a server listening on `listen` may carry: the
 * loopback names when it answers on the loopback, and the addresses it listens on, as IP
 * literals. No other name passes, so a page of another site that a DNS name rebinds to this
 * machine is refused (its `Host` is that name).
 */
function allowedHosts(listen: string, port: number): string[] {
  const addresses = listenAddresses(listen);
  const names = addresses.some(isLoopback) || listen === LOOPBACK_HOST ? ['127.0.0.1', 'localhost'] : [];
  for (const a of addresses) if (!names.includes(a)) names.push(urlHost(a));
  return names.map((n) => `${n}:${port}`);
}

export const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

function sameToken(a: string | undefined | null, token: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(token);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const h = req.headers.cookie;
  if (!h) return undefined;
  for (const part of h.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The reason a request may not pass, or null. `listen` is the address the server listens on
 * (default: the loopback): the `Host` and `Origin` must name it or, for a wildcard, one of this
 * machine's addresses ({@link allowedHosts}).
 */
export function checkRequest(
  req: IncomingMessage,
  port: number,
  token: string,
  requireOrigin: boolean,
  listen: string = LOOPBACK_HOST,
): { status: number; reason: string } | null {
  const hosts = allowedHosts(listen, port);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.includes(host)) return { status: 403, reason: 'wrong Host' };
  const origin = req.headers.origin;
  if (origin !== undefined || requireOrigin) {
    if (!hosts.some((h) => origin === `http://${h}`)) return { status: 403, reason: 'foreign Origin' };
  }
  const url = new URL(req.url ?? '/', `http://${host}`);
  // An empty `?token=` counts as none: the cookie from an earlier visit then lets the page in.
  const given = url.searchParams.get('token') || cookieValue(req, cookieName(port));
  if (!sameToken(given, token)) return { status: 403, reason: 'missing or wrong token' };
  return null;
}

const cookieName = (port: number): string => `thoth_gui_${port}`;

/** The `Set-Cookie` value that lets a page served by this port show its token on later requests. */
export const tokenCookie = (port: number, token: string): string =>
  `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;

/**
 * Starts `server` at `port` (0: any free one) on the loopback address, or on `host` when a person
 * named one; the port it got.
 */
export async function listenLoopback(server: Server, port: number, host: string = LOOPBACK_HOST): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  return typeof addr === 'object' && addr ? addr.port : port;
}

/** Maps a request path to a file inside `root`, or null for anything suspicious. */
export function resolveStatic(root: string, rawUrl: string): string | null {
  const rawPath = rawUrl.split('?')[0].split('#')[0];
  let p: string;
  try {
    p = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!p.startsWith('/') || p.includes('\0') || p.includes('\\')) return null;
  const segs = p.split('/');
  if (segs.some((s) => s === '..' || s === '.')) return null;
  if (segs.slice(1).some((s, i) => s === '' && i < segs.length - 2)) return null; // '//'
  const rel = p === '/' ? 'index.html' : p.slice(1);
  if (!(path.extname(rel) in MIME)) return null;
  const full = path.resolve(root, rel);
  if (!full.startsWith(root + path.sep)) return null;
  return full;
}
