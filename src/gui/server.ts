/**
 * The GUI server: HTTP on 127.0.0.1 (or the address a person names, to open it to a club's
 * network), serving the page's files from one folder, and a WebSocket (`/ws`) for each page that
 * carries protocol lines between the page and its own engine (src/gui/engines.ts); with a game
 * database, its explorer's answers under /api/ (src/gui/database-api.ts).
 *
 * Every request needs the per-run token (in the URL, or the cookie the page receives with it),
 * a `Host` naming this server (against DNS rebinding) and, when the browser sends one, an
 * `Origin` of this server; WebSocket upgrades must carry that `Origin` (src/http/loopback.ts holds
 * those checks, shared with the distributed runner's status page).
 */
import type { ForeignProtocol } from '../foreign/foreign';
import { randomBytes } from 'node:crypto';
import { promises as fsp, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { availableParallelism, totalmem } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  LOOPBACK_HOST,
  MIME,
  SECURITY_HEADERS,
  checkRequest,
  listenAddresses,
  listenLoopback,
  resolveStatic,
  tokenCookie,
  urlHost,
} from '../http/loopback';
import type { BridgeClient } from './bridge';
import { answerDatabase, type GameDatabase } from './database-api';
import { EnginePool } from './engines';
import { filterCommand, type PageLimits } from './filter';
import type { FullStrength, ServerMessage } from './messages';

export interface GuiServerOptions {
  /** Port to listen on; 0 = any free port. */
  port: number;
  /** Folder of the page's files (index.html, app.js, style.css, ...). */
  staticDir: string;
  /** Engine program and arguments. */
  engine: string[];
  /** Working directory of the engine. */
  engineCwd?: string;
  /** Another engine's protocol (src/foreign): the engine is spoken to through its translator. */
  engineProto?: ForeignProtocol;
  /** Fixed token (tests); normally random. */
  token?: string;
  /** Receives protocol traffic and errors. */
  log?: (s: string) => void;
  /** Full strength (default: {@link fullStrength} of this machine). */
  strength?: FullStrength;
  /**
   * The address to listen on (default 127.0.0.1). Another one (`0.0.0.0`: every interface)
   * opens the server to a network; the token and the `Host`/`Origin` checks still hold.
   */
  host?: string;
  /** The most pages served at once, an engine process each (default {@link DEFAULT_PAGES}). */
  most?: number;
  /** How long each step of an engine's handshake may take (default: the bridge's, src/gui/bridge.ts). */
  handshakeMs?: number;
  /** A game database for the page's explorer (`thoth gui --db FILE`; src/gui/database-api.ts). */
  database?: GameDatabase;
}

/** How many pages `thoth gui` serves at once unless told (an engine process each). */
export const DEFAULT_PAGES = 4;

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
  /** The address to open: on the loopback, or the one address named. */
  url: string;
  /** The addresses on a network (listening on a wildcard: every interface's but the loopback). */
  networkUrls: string[];
  port: number;
  token: string;
  engines: EnginePool;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(body + '\n');
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const text = status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
}

/** What a request is checked against: the page's folder, the address, the port and the per-run token. */
interface Site {
  root: string;
  host: string;
  port: number;
  token: string;
  log?: (s: string) => void;
}

/** Answers one HTTP request: a file of the page's folder, after the token, Host and Origin checks. */
async function serveStatic(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { root, port, token } = site;
  try {
    const bad = checkRequest(req, port, token, false, site.host);
    if (bad) return send(res, bad.status, `Forbidden: ${bad.reason}`);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
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
    site.log?.(`http error: ${e instanceof Error ? e.message : String(e)}`);
    if (!res.headersSent) send(res, 500, 'Internal Server Error');
    else res.destroy();
  }
}

/**
 * One page's WebSocket: the page gets an engine of its own (or is told that the server serves
 * as many pages as it may), and its `cmd` messages reach that engine after the filter.
 */
function connectPage(ws: WebSocket, engines: EnginePool, limits: PageLimits): void {
  const out = (m: ServerMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const hello = (): void => {
    const bridge = engines.of(client);
    if (!bridge) return;
    out({
      type: 'hello',
      state: bridge.state,
      engine: bridge.commandText,
      handshake: bridge.handshake,
      message: bridge.message || undefined,
      strength: bridge.strength,
      pages: { open: engines.pages, most: engines.most },
    });
  };
  const client: BridgeClient = {
    line: (text) => out({ type: 'line', line: text }),
    state: hello,
  };
  const bridge = engines.attach(client);
  if (!bridge) {
    out({ type: 'full', most: engines.most });
    ws.close(4001, 'the server serves as many pages as it may');
    return;
  }
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
    const f = filterCommand(m.line, limits);
    if (!f.ok)
      return out({
        type: 'refused',
        line: typeof m.line === 'string' ? m.line.slice(0, 200) : '',
        reason: f.error.reason,
      });
    bridge.send(client, f.value);
  });
  ws.on('close', () => engines.release(client));
  ws.on('error', () => ws.terminate());
}

export async function startGuiServer(opts: GuiServerOptions): Promise<GuiServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const host = opts.host ?? LOOPBACK_HOST;
  const site: Site = {
    root: realpathSync(path.resolve(opts.staticDir)),
    host,
    port: opts.port,
    token,
    log: opts.log,
  };
  const strength = opts.strength ?? fullStrength();
  const engines = new EnginePool({
    command: opts.engine,
    cwd: opts.engineCwd,
    proto: opts.engineProto,
    log: opts.log,
    strength,
    most: opts.most ?? DEFAULT_PAGES,
    handshakeMs: opts.handshakeMs,
  });
  // A page may ask no more of the machine than full strength does.
  const limits: PageLimits = { hashMb: strength.hashMb ?? fullStrength().hashMb, threads: strength.threads };
  const server: Server = createServer((req, res) => {
    if (!(req.url ?? '').startsWith('/api/')) return void serveStatic(site, req, res);
    const bad = checkRequest(req, site.port, token, false, host);
    if (bad) return send(res, bad.status, `Forbidden: ${bad.reason}`);
    answerDatabase(opts.database, req, res);
  });
  // loaded when a server starts, not on import: every other command of the CLI starts without it;
  // written as one call, the form a distributed build reads to pack the package
  // (src/distributed/builds.ts, packagesLoaded)
  const { WebSocketServer } = createRequire(import.meta.url)('ws') as typeof import('ws');
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const bad = checkRequest(req, site.port, token, true, host);
    if (bad) return refuseUpgrade(socket, bad.status, bad.reason);
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== '/ws') return refuseUpgrade(socket, 404, 'no such endpoint');
    wss.handleUpgrade(req, socket, head, (ws) => connectPage(ws, engines, limits));
  });

  const port = await listenLoopback(server, opts.port, host);
  site.port = port;
  engines.start();

  const wildcard = host === '0.0.0.0' || host === '::';
  const address = (a: string): string => `http://${urlHost(a)}:${port}/?token=${token}`;
  return {
    url: address(wildcard ? LOOPBACK_HOST : host),
    networkUrls: wildcard
      ? listenAddresses(host)
          .filter((a) => a !== '::1' && !a.startsWith('127.'))
          .map(address)
      : [],
    port,
    token,
    engines,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      await engines.close();
    },
  };
}
