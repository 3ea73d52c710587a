/**
 * The status page of distributed runs (`thoth match-status redis://… --page`): a small HTTP server
 * on 127.0.0.1 with the GUI server's rules (a per-run token in the URL or its cookie, the Host and
 * Origin checks, the same security headers), serving the page's files (dist/status/) and
 * `/api/status`, the run's live status and LLR series as JSON.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp, realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { Redis } from 'ioredis';
import {
  checkRequest,
  LOOPBACK_HOST,
  listenLoopback,
  MIME,
  resolveStatic,
  SECURITY_HEADERS,
  tokenCookie,
} from '../http/loopback';
import { datagenAsRunStatus, isDatagenStatus } from './datagen-jobs';
import { isRunId } from './redis';
import { listRuns, MalformedStatus, readLlrSeries, readStatus } from './status';

export interface StatusPage {
  url: string;
  port: number;
  close(): Promise<void>;
}

function reply(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, ...extra });
  res.end(body);
}

/** Serves the page; `run` is the run shown when the page does not name one (the newest otherwise). */
export async function startStatusPage(
  redis: Redis,
  opts: { port: number; staticDir: string; run?: string; token?: string },
): Promise<StatusPage> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const root = realpathSync(path.resolve(opts.staticDir));
  let port = opts.port;

  const api = async (url: URL): Promise<unknown> => {
    const runs = await listRuns(redis);
    const run = url.searchParams.get('run') ?? opts.run ?? runs[0];
    if (run === undefined || !isRunId(run)) return { runs, status: null, llr: [] };
    let status: Awaited<ReturnType<typeof readStatus>> | null;
    try {
      status = (await readStatus(redis, run)) ?? null;
    } catch (e) {
      if (e instanceof MalformedStatus) return { runs, status: null, llr: [], error: e.message };
      throw e;
    }
    return {
      runs,
      status: isDatagenStatus(status) ? datagenAsRunStatus(status) : status,
      llr: await readLlrSeries(redis, run),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const bad = checkRequest(req, port, token, false);
    if (bad) return reply(res, bad.status, 'text/plain; charset=utf-8', `Forbidden: ${bad.reason}\n`);
    if (req.method !== 'GET')
      return reply(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', { Allow: 'GET' });
    const url = new URL(req.url ?? '/', `http://${LOOPBACK_HOST}`);
    if (url.pathname === '/api/status') {
      try {
        return reply(res, 200, 'application/json; charset=utf-8', JSON.stringify(await api(url)));
      } catch (e) {
        return reply(
          res,
          503,
          'application/json; charset=utf-8',
          JSON.stringify({ error: `Redis: ${(e as Error).message}` }),
        );
      }
    }
    const file = resolveStatic(root, req.url ?? '/');
    if (!file || !(path.extname(file) in MIME)) return reply(res, 404, 'text/plain; charset=utf-8', 'Not Found\n');
    let body: Buffer;
    try {
      body = await fsp.readFile(file);
    } catch {
      return reply(res, 404, 'text/plain; charset=utf-8', 'Not Found\n');
    }
    const extra: Record<string, string> =
      path.extname(file) === '.html' ? { 'Set-Cookie': tokenCookie(port, token) } : {};
    reply(res, 200, MIME[path.extname(file)], body, extra);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error\n');
      else res.destroy();
    });
  });
  port = await listenLoopback(server, opts.port);
  return {
    url: `http://${LOOPBACK_HOST}:${port}/?token=${token}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
