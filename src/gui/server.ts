/**
 * The GUI server: HTTP on 127.0.0.1 only, serving the page's files from one folder, and a
 * WebSocket (`/ws`) that carries protocol lines between the page and the engine bridge.
 *
 * Every request needs the per-run token (in the URL, or the cookie the page receives with it),
 * a `Host` naming this server (against DNS rebinding) and, when the browser sends one, an
 * `Origin` of this server; WebSocket upgrades must carry that `Origin`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fsp, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EngineBridge, type BridgeClient } from './bridge';
import { filterCommand } from './filter';
import type { FullStrength, ServerMessage } from './messages';

export const GUI_HOST = '127.0.0.1';

export interface GuiServerOptions {
  /** Port to listen on; 0 = any free port. */
  port: number;
  /** Folder of the page's files (index.html, app.js, style.css, ...). */
  staticDir: string;
  /** Engine program and arguments. */
  engine: string[];
  /** Working directory of the engine. */
  engineCwd?: string;
  /** Fixed token (tests); normally random. */
  token?: string;
  /** Receives protocol traffic and errors. */
  log?: (s: string) => void;
  /** Full strength (default: {@link fullStrength} of this machine). */
  strength?: FullStrength;
}

/**
 * Full strength for `thoth gui`: `Threads` = every core, `Hash` = a 64th of the machine's memory,
 * the largest power of two from 16 to 1024 MB (24 GB → 256 MB, 64 GB → 1024 MB).
 */
export function fullStrength(cores = availableParallelism(), memoryBytes = totalmem()): FullStrength {
  const want = Math.min(1024, memoryBytes / 64 / 2 ** 20);
  let hashMb = 16;
  while (hashMb * 2 <= want) hashMb *= 2;
  return { threads: Math.max(1, cores), hashMb };
}

export interface GuiServer {
  url: string;
  port: number;
  token: string;
  bridge: EngineBridge;
  close(): Promise<void>;
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

/** The reason a request may not pass, or null. */
export function checkRequest(
  req: IncomingMessage,
  port: number,
  token: string,
  requireOrigin: boolean,
): { status: number; reason: string } | null {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
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
export const tokenCookie = (port: number, token: string): string => `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;

/** Starts `server` on the loopback address at `port` (0: any free one); the port it got. */
export async function listenLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, GUI_HOST, () => {
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

function send(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(body + '\n');
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const text = status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
}

export async function startGuiServer(opts: GuiServerOptions): Promise<GuiServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const root = realpathSync(path.resolve(opts.staticDir));
  const bridge = new EngineBridge({ command: opts.engine, cwd: opts.engineCwd, log: opts.log, strength: opts.strength ?? fullStrength() });
  let port = opts.port;

  const server: Server = createServer((req, res) => {
    void handleHttp(req, res);
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const bad = checkRequest(req, port, token, false);
      if (bad) return send(res, bad.status, `Forbidden: ${bad.reason}`);
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      const file = resolveStatic(root, req.url ?? '/');
      if (!file) return send(res, 400, 'Bad Request: path refused');
      let real: string;
      try {
        real = await fsp.realpath(file);
      } catch {
        return send(res, 404, 'Not Found');
      }
      if (!real.startsWith(root + path.sep)) return send(res, 403, 'Forbidden: outside the folder');
      const st = await fsp.stat(real);
      if (!st.isFile()) return send(res, 404, 'Not Found');
      const body = await fsp.readFile(real);
      const headers: Record<string, string> = {
        ...SECURITY_HEADERS,
        'Content-Type': MIME[path.extname(real)] ?? 'application/octet-stream',
        'Content-Length': String(body.length),
      };
      if (path.extname(real) === '.html') {
        headers['Set-Cookie'] = tokenCookie(port, token);
      }
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      opts.log?.(`http error: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) send(res, 500, 'Internal Server Error');
      else res.destroy();
    }
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const bad = checkRequest(req, port, token, true);
    if (bad) return refuseUpgrade(socket, bad.status, bad.reason);
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== '/ws') return refuseUpgrade(socket, 404, 'no such endpoint');
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws));
  });

  function onConnection(ws: WebSocket): void {
    const out = (m: ServerMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
    };
    const hello = (): void =>
      out({ type: 'hello', state: bridge.state, engine: bridge.commandText, handshake: bridge.handshake, message: bridge.message || undefined, strength: bridge.strength });
    const client: BridgeClient = {
      line: (text) => out({ type: 'line', line: text }),
      state: hello,
    };
    const replaced = bridge.attach(client);
    if (replaced) replacedClients.get(replaced)?.();
    replacedClients.set(client, () => {
      out({ type: 'superseded' });
      ws.close(4000, 'another page took over the engine');
    });
    hello();
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return out({ type: 'refused', line: '', reason: 'not JSON' });
      }
      const m = msg as { type?: unknown; line?: unknown };
      if (m.type === 'restart') return bridge.restart(client);
      if (m.type !== 'cmd') return out({ type: 'refused', line: '', reason: 'unknown message' });
      const f = filterCommand(m.line);
      if (!f.ok) return out({ type: 'refused', line: typeof m.line === 'string' ? m.line.slice(0, 200) : '', reason: f.error.reason });
      bridge.send(client, f.value);
    });
    ws.on('close', () => {
      replacedClients.delete(client);
      bridge.release(client);
    });
    ws.on('error', () => ws.terminate());
  }
  const replacedClients = new Map<BridgeClient, () => void>();

  port = await listenLoopback(server, opts.port);
  bridge.start();

  return {
    url: `http://${GUI_HOST}:${port}/?token=${token}`,
    port,
    token,
    bridge,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      await bridge.close();
    },
  };
}
