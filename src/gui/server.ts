/**
 * The GUI server: HTTP on 127.0.0.1 only, serving the page's files from one folder, and a
 * WebSocket (`/ws`) that carries protocol lines between the page and the engine bridge.
 *
 * Every request needs the per-run token (in the URL, or the cookie the page receives with it),
 * a `Host` naming this server (against DNS rebinding) and, when the browser sends one, an
 * `Origin` of this server; WebSocket upgrades must carry that `Origin` (src/http/loopback.ts holds
 * those checks, shared with the distributed runner's status page).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  LOOPBACK_HOST,
  MIME,
  SECURITY_HEADERS,
  checkRequest,
  listenLoopback,
  resolveStatic,
  tokenCookie,
} from '../http/loopback';
import { EngineBridge, type BridgeClient } from './bridge';
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
  /** Fixed token (tests); normally random. */
  token?: string;
  /** Receives protocol traffic and errors. */
  log?: (s: string) => void;
  /** Full strength (default: {@link fullStrength} of this machine). */
  strength?: FullStrength;
  /** Each step of the engine's handshake may take this long (ms; 0: no limit; default 10,000). */
  handshakeMs?: number;
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

function send(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(body + '\n');
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  const text = status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Bad Request';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${reason}\n`);
}

/** What a request is checked against: the page's folder, the port and the per-run token. */
interface Site {
  root: string;
  port: number;
  token: string;
  log?: (s: string) => void;
}

/** Answers one HTTP request: a file of the page's folder, after the token, Host and Origin checks. */
async function serveStatic(site: Site, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { root, port, token } = site;
  try {
    const bad = checkRequest(req, port, token, false);
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
 * One page's WebSocket: it takes the engine over from the page before (which is told and
 * closed), and its `cmd` messages reach the engine after the filter.
 */
function connectPage(
  ws: WebSocket,
  bridge: EngineBridge,
  replacedClients: Map<BridgeClient, () => void>,
  limits: PageLimits,
): void {
  const out = (m: ServerMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const hello = (): void =>
    out({
      type: 'hello',
      state: bridge.state,
      engine: bridge.commandText,
      handshake: bridge.handshake,
      message: bridge.message || undefined,
      strength: bridge.strength,
    });
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
    const f = filterCommand(m.line, limits);
    if (!f.ok)
      return out({
        type: 'refused',
        line: typeof m.line === 'string' ? m.line.slice(0, 200) : '',
        reason: f.error.reason,
      });
    bridge.send(client, f.value);
  });
  ws.on('close', () => {
    replacedClients.delete(client);
    bridge.release(client);
  });
  ws.on('error', () => ws.terminate());
}

export async function startGuiServer(opts: GuiServerOptions): Promise<GuiServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const site: Site = { root: realpathSync(path.resolve(opts.staticDir)), port: opts.port, token, log: opts.log };
  const strength = opts.strength ?? fullStrength();
  const bridge = new EngineBridge({
    command: opts.engine,
    cwd: opts.engineCwd,
    log: opts.log,
    strength,
    handshakeMs: opts.handshakeMs,
  });
  // A page may ask no more of the machine than full strength does.
  const limits: PageLimits = { hashMb: strength.hashMb ?? fullStrength().hashMb, threads: strength.threads };
  const server: Server = createServer((req, res) => {
    void serveStatic(site, req, res);
  });
  const replacedClients = new Map<BridgeClient, () => void>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const bad = checkRequest(req, site.port, token, true);
    if (bad) return refuseUpgrade(socket, bad.status, bad.reason);
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== '/ws') return refuseUpgrade(socket, 404, 'no such endpoint');
    wss.handleUpgrade(req, socket, head, (ws) => connectPage(ws, bridge, replacedClients, limits));
  });

  const port = await listenLoopback(server, opts.port);
  site.port = port;
  bridge.start();

  return {
    url: `http://${LOOPBACK_HOST}:${port}/?token=${token}`,
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
