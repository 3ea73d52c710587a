/**
 * The GUI server: token, Host and Origin checks, static files only from its folder, only
 * allowed commands forwarded, and a page that closes mid-search leaves the engine idle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { filterCommand } from '../../src/gui/filter';
import type { ServerMessage } from '../../src/gui/messages';
import { startGuiServer, type GuiServer } from '../../src/gui/server';
import { patiently, runProcess, until } from '../patience';
import { scaledMs } from '../slowness';
import { CLI, FAKE_ENGINE_ARGV, ROOT, realEngineWorks } from './helpers';

const REAL_ENGINE = await realEngineWorks();
if (!REAL_ENGINE)
  console.warn(
    'GUI server test with the real engine SKIPPED: `node dist/cli.js` does not answer `go` with `bestmove` yet.',
  );

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function get(port: number, rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: rawPath, method, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A WebSocket client that records messages and can wait for one. */
class Client {
  readonly ws: WebSocket;
  readonly messages: ServerMessage[] = [];
  private waiters: { test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number }>;

  constructor(url: string, origin?: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, origin ? { origin, headers } : { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve({ code })));
    this.ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as ServerMessage;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (w.test(m)) {
          w.resolve(m);
          return false;
        }
        return true;
      });
    });
  }

  send(line: string): void {
    this.ws.send(JSON.stringify({ type: 'cmd', line }));
  }

  /** The first message passing `test`, within `ms` of an idle machine's time (test/patience.ts). */
  wait(test: (m: ServerMessage) => boolean, ms = 5000, what = `a message passing ${test}`): Promise<ServerMessage> {
    const have = this.messages.find(test);
    if (have) return Promise.resolve(have);
    const waiter = { test, resolve: (_: ServerMessage) => {} };
    const got = new Promise<ServerMessage>((resolve) => {
      waiter.resolve = resolve;
      this.waiters.push(waiter);
    });
    return patiently(what, ms, got, () => `the last messages: ${JSON.stringify(this.messages.slice(-5))}`).finally(
      () => (this.waiters = this.waiters.filter((w) => w !== waiter)),
    );
  }

  waitLine(re: RegExp, ms = 5000): Promise<ServerMessage> {
    return this.wait((m) => m.type === 'line' && re.test(m.line), ms, `a line matching ${re}`);
  }

  lines(): string[] {
    return this.messages.flatMap((m) => (m.type === 'line' ? [m.line] : []));
  }

  /** `isready` answered: every line the engine wrote before it has arrived. */
  async barrier(): Promise<void> {
    const seen = this.lines().filter((l) => l === 'readyok').length;
    this.send('isready');
    await this.wait(() => this.lines().filter((l) => l === 'readyok').length > seen);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * How long a page's wait for its engine may take here (in idle-machine time, test/patience.ts), and
 * the handshake budget of the servers that set one: the fake engine starts under tsx, which took
 * more than the server's 10 s on a loaded machine (2026-12-07).
 */
const ENGINE_MS = 60_000;

describe('the command filter', () => {
  it('passes the commands a GUI needs', () => {
    for (const l of [
      'uci',
      'isready',
      'ucinewgame',
      'stop',
      'ponderhit',
      'setoption name MultiPV value 3',
      'setoption name UCI_Variant value khet1',
      'setoption name Clear Hash',
      'setoption name move overhead value 30',
      'setoption name UCI_ShowWDL value true',
      'position startpos',
      'position setup imhotep moves c1b2 j5-',
      'position classic',
      'position kfen xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1 moves c1+ d1e2u',
      'go infinite',
      'go depth 6',
      'go movetime 1000',
      'go wtime 1000 btime 2000 winc 10 binc 10 movestogo 5',
      'go ponder wtime 5 btime 5',
      'go searchmoves c1b2 j1-',
      '  go   depth   3  ',
    ]) {
      expect(filterCommand(l), l).toMatchObject({ ok: true });
    }
    expect(filterCommand('  go   depth   3  ')).toEqual({ ok: true, value: 'go depth 3' });
    expect(filterCommand('quit')).toEqual({ ok: false, error: { reason: "'quit' is not a command a page may send" } });
  });

  it('refuses everything else', () => {
    for (const l of [
      'quit',
      'bench',
      'd',
      'eval',
      'go perft 5',
      'go depth',
      'go depth 3x',
      'setoption name Debug Log File value /tmp/x',
      'setoption name SyzygyPath value /etc',
      'position startpos\nquit',
      'isready\rquit',
      'position kfen ../../etc/passwd s 0 1',
      'position startpos moves c1b2; rm',
      'position startpos moves',
      'uci now',
      '',
      '   ',
      'go searchmoves',
      'setoption name MultiPV value 3 4',
      'x'.repeat(20000),
      'position startpos moves c1b2 \u00e9',
    ]) {
      if (l === 'position startpos moves') continue; // an empty move list is harmless
      expect(filterCommand(l).ok, JSON.stringify(l.slice(0, 60))).toBe(false);
    }
    expect(filterCommand(42).ok).toBe(false);
  });

  it("caps Hash and Threads at the server's full strength (sized to the machine)", () => {
    const limits = { hashMb: 256, threads: 4 };
    for (const l of [
      'setoption name Hash value 256',
      'setoption name hash value 16',
      'setoption name Threads value 4',
      'setoption name Threads value 1',
    ]) {
      expect(filterCommand(l, limits), l).toMatchObject({ ok: true });
    }
    expect(filterCommand('setoption name Hash value 8192', limits)).toEqual({
      ok: false,
      error: { reason: 'setoption: Hash may be at most 256 MB from the page (sized to this machine)' },
    });
    expect(filterCommand('setoption name Threads value 64', limits)).toEqual({
      ok: false,
      error: { reason: 'setoption: Threads may be at most 4 from the page (sized to this machine)' },
    });
    expect(filterCommand('setoption name HASH value 1e9', limits).ok).toBe(false);
    expect(filterCommand('setoption name Hash value abc', limits).ok).toBe(false);
  });
});

describe('the GUI server', () => {
  let dir: string;
  let staticDir: string;
  let server: GuiServer;
  /** The server's log: every engine's traffic, each line headed `engine N`. */
  const serverLog: string[] = [];
  /** The commands the engine numbered `id` was sent, in order. */
  const sentTo = (id: number): string[] =>
    serverLog.flatMap((l) => (l.startsWith(`engine ${id} > `) ? [l.slice(`engine ${id} > `.length)] : []));
  let wsUrl: string;
  let origin: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-gui-'));
    staticDir = path.join(dir, 'www');
    mkdirSync(path.join(staticDir, 'sub'), { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(staticDir, 'app.js'), 'console.log(1)');
    writeFileSync(path.join(staticDir, 'sub', 'x.css'), 'body{}');
    writeFileSync(path.join(dir, 'secret.txt'), 'SECRET');
    writeFileSync(path.join(dir, 'secret.js'), 'SECRET');
    symlinkSync(path.join(dir, 'secret.js'), path.join(staticDir, 'link.js'));
    server = await startGuiServer({
      port: 0,
      staticDir,
      engine: FAKE_ENGINE_ARGV,
      engineCwd: ROOT,
      log: (l) => serverLog.push(l),
      handshakeMs: ENGINE_MS,
    });
    wsUrl = `ws://127.0.0.1:${server.port}/ws?token=${server.token}`;
    origin = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL with a long random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
  });

  it('serves the page with the token, and the files after it through the cookie', async () => {
    const r = await get(server.port, `/?token=${server.token}`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>t</title>');
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    const cookie = String(r.headers['set-cookie']).split(';')[0];
    expect(cookie).toBe(`thoth_gui_${server.port}=${server.token}`);
    const js = await get(server.port, '/app.js', { Cookie: cookie });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toContain('javascript');
    expect((await get(server.port, `/sub/x.css?token=${server.token}`)).status).toBe(200);
    expect((await get(server.port, `/localhost/?token=${server.token}`)).status).toBe(400);
    expect((await get(server.port, `/missing.js?token=${server.token}`)).status).toBe(404);
    expect((await get(server.port, `/?token=${server.token}`, { Host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('refuses requests without the token or with a wrong one', async () => {
    for (const p of ['/', '/app.js', '/?token=', `/?token=${server.token.slice(1)}`, `/?token=${server.token}x`]) {
      const r = await get(server.port, p);
      expect(r.status, p).toBe(403);
      expect(r.body).not.toContain('<title>');
    }
    expect((await get(server.port, '/app.js', { Cookie: `thoth_gui_${server.port}=nope` })).status).toBe(403);
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding)', async () => {
    const p = `/?token=${server.token}`;
    expect((await get(server.port, p, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(server.port, p, { Origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await get(server.port, p, { Origin: 'null' })).status).toBe(403);
    expect((await get(server.port, p, { Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, p, { Host: 'evil.example' })).status).toBe(403);
    expect((await get(server.port, p, { Origin: origin })).status).toBe(200);
  });

  it('refuses ../ paths and anything outside its folder', async () => {
    const t = `token=${server.token}`;
    for (const p of [
      `/../secret.txt?${t}`,
      `/sub/../../secret.txt?${t}`,
      `/%2e%2e/secret.txt?${t}`,
      `/..%2fsecret.txt?${t}`,
      `/sub/..%2F..%2Fsecret.js?${t}`,
      `/..%5csecret.js?${t}`,
      `/%2e%2e%2f%2e%2e%2fetc/passwd?${t}`,
      `/./app.js?${t}`,
      `/app.js%00.html?${t}`,
      `/%E0%A4%A?${t}`,
      `//etc/passwd?${t}`,
    ]) {
      const r = await get(server.port, p);
      expect(r.status, p).toBeGreaterThanOrEqual(400);
      expect(r.body, p).not.toContain('SECRET');
    }
    // A link inside the folder that points out of it.
    const link = await get(server.port, `/link.js?${t}`);
    expect(link.status).toBe(403);
    expect(link.body).not.toContain('SECRET');
    // Only GET and HEAD.
    expect((await get(server.port, `/?${t}`, {}, 'POST')).status).toBe(405);
  });

  it('refuses WebSocket connections without the token, with a foreign Origin or none', async () => {
    const attempts: [string, string | undefined][] = [
      [`ws://127.0.0.1:${server.port}/ws`, origin],
      [`ws://127.0.0.1:${server.port}/ws?token=wrong`, origin],
      [wsUrl, 'http://evil.example'],
      [wsUrl, undefined],
      [`ws://127.0.0.1:${server.port}/other?token=${server.token}`, origin],
    ];
    for (const [url, o] of attempts) {
      const c = new Client(url, o);
      await expect(c.opened, `${url} ${o}`).rejects.toThrow(/HTTP (403|404)/);
    }
  });

  it('lets a page in with the cookie of an earlier visit when its address has no token', async () => {
    const cookie = `thoth_gui_${server.port}=${server.token}`;
    expect((await get(server.port, '/', { Cookie: cookie })).status).toBe(200);
    expect((await get(server.port, '/?token=', { Cookie: cookie })).status).toBe(200);
    for (const url of [`ws://127.0.0.1:${server.port}/ws`, `ws://127.0.0.1:${server.port}/ws?token=`]) {
      const c = new Client(url, origin, { Cookie: cookie });
      await c.opened;
      await c.wait((m) => m.type === 'hello');
      c.ws.close();
      await c.closed;
    }
  });

  it('replays the handshake and forwards only allowed commands', async () => {
    const c = new Client(wsUrl, origin);
    await c.opened;
    const hello = await c.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
    expect(hello.type === 'hello' && hello.handshake).toContain('uciok');
    expect(hello.type === 'hello' && hello.handshake.some((l) => l.startsWith('id name FakeThoth'))).toBe(true);
    c.send('quit');
    c.send('go perft 3');
    c.send('isready\nquit');
    const refused = await c.wait((m) => m.type === 'refused' && m.line.startsWith('isready'));
    expect(c.messages.filter((m) => m.type === 'refused')).toHaveLength(3);
    expect(refused.type === 'refused' && refused.reason).toMatch(/one line/);
    // A page holding the token asks for more memory than full strength gives this machine.
    c.send('setoption name Hash value 8192');
    const big = await c.wait((m) => m.type === 'refused' && m.line.startsWith('setoption name Hash'));
    expect(big.type === 'refused' && big.reason).toMatch(
      /^setoption: Hash may be at most \d+ MB from the page \(sized to this machine\)$/,
    );
    c.send('uci');
    await c.waitLine(/^uciok$/);
    c.send('isready');
    await c.waitLine(/^readyok$/);
    const [engine] = server.engines.bridges();
    const log = sentTo(engine.id).join('\n');
    expect(log).not.toMatch(/quit|perft|value 8192/);
    // `uci` was answered from the handshake, not sent again.
    expect(log.match(/^uci$/gm)).toHaveLength(1);
    c.ws.close();
    await c.closed;
  });

  it('stops the search when the page goes away mid-search; its engine, put back, serves the next page', async () => {
    const a = new Client(wsUrl, origin);
    await a.opened;
    await a.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
    const [engine] = server.engines.bridges();
    a.send('position startpos moves c1b2');
    a.send('go infinite');
    await a.waitLine(/^info depth \d+/);
    expect(engine.outstanding).toBe(1);
    a.ws.close();
    await a.closed;
    // The server sends `stop`; the engine's answer reaches nobody; the engine is put back.
    await until("the engine's bestmove after the server's stop", 5000, () => engine.outstanding === 0);
    expect(engine.outstanding).toBe(0);
    expect(engine.orphans).toBe(0);
    const sent = sentTo(engine.id);
    expect(sent.slice(sent.lastIndexOf('go infinite'))).toEqual(['go infinite', 'stop', 'ucinewgame']);
    expect(server.engines.pages).toBe(0);
    expect(await engine.ping()).toBe(true);

    // The next page finds it ready, and sees none of the old search's output.
    const b = new Client(wsUrl, origin);
    await b.opened;
    await b.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
    expect(server.engines.bridges()[0].id).toBe(engine.id);
    b.send('isready');
    await b.waitLine(/^readyok$/);
    b.send('position startpos');
    b.send('go depth 2');
    await b.waitLine(/^bestmove /);
    await b.barrier();
    expect(b.lines().filter((l) => l.startsWith('bestmove'))).toHaveLength(1);
    expect(b.lines().some((l) => l.includes('pv') && l.includes('time') && / c1b2 /.test(l))).toBe(false);
    expect(engine.outstanding).toBe(0);
    b.ws.close();
    await b.closed;
  });

  it('gives each page an engine of its own: two pages search at once, neither is told to stop', async () => {
    const a = new Client(wsUrl, origin);
    const b = new Client(wsUrl, origin);
    await Promise.all([a.opened, b.opened]);
    await a.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
    await b.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
    const [ea, eb] = server.engines.bridges();
    expect(ea.id).not.toBe(eb.id);
    expect(server.engines.pages).toBe(2);
    // what each engine is sent from here (one may have served a page before)
    const start = [sentTo(ea.id).length, sentTo(eb.id).length];
    const sentA = (): string[] => sentTo(ea.id).slice(start[0]);
    const sentB = (): string[] => sentTo(eb.id).slice(start[1]);
    a.send('position startpos');
    a.send('go infinite');
    b.send('position startpos moves c1b2');
    b.send('go infinite');
    await a.waitLine(/^info depth \d+/);
    await b.waitLine(/^info depth \d+/);
    expect(ea.outstanding).toBe(1);
    expect(eb.outstanding).toBe(1);
    a.send('stop');
    b.send('stop');
    await a.waitLine(/^bestmove /);
    await b.waitLine(/^bestmove /);
    expect(sentA()).toContain('position startpos');
    expect(sentA()).not.toContain('position startpos moves c1b2');
    expect(sentB()).toContain('position startpos moves c1b2');
    expect([...a.messages, ...b.messages].some((m) => m.type === 'full')).toBe(false);
    a.ws.close();
    b.ws.close();
    await Promise.all([a.closed, b.closed]);
    // One engine is kept ready for the next page (put back), the other ends: no more run than pages, and one.
    for (let i = 0; i < 100 && [ea, eb].some((e) => e.state === 'ready' && sentTo(e.id).at(-1) !== 'ucinewgame'); i++)
      await sleep(50);
    expect([ea, eb].map((e) => sentTo(e.id).at(-1)).sort()).toEqual(['quit', 'ucinewgame']);
  });

  it('reports an engine that cannot start', async () => {
    const s = await startGuiServer({ port: 0, staticDir, engine: [path.join(dir, 'no-such-engine')] });
    try {
      const c = new Client(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, `http://127.0.0.1:${s.port}`);
      await c.opened;
      const h = await c.wait((m) => m.type === 'hello' && m.state === 'failed');
      expect(h.type === 'hello' && h.message).toMatch(/cannot start the engine/);
      c.ws.close();
    } finally {
      await s.close();
    }
  });
  it('restarts the engine when the page asks (it stopped answering)', async () => {
    const c = new Client(wsUrl, origin);
    await c.opened;
    await c.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
    const [engine] = server.engines.bridges();
    const uciBefore = sentTo(engine.id).filter((l) => l === 'uci').length;
    const seen = c.messages.length;
    c.ws.send(JSON.stringify({ type: 'restart' }));
    await c.wait((m) => m.type === 'hello' && m.state === 'starting' && c.messages.indexOf(m) >= seen);
    await c.wait((m) => m.type === 'hello' && m.state === 'ready' && c.messages.indexOf(m) >= seen, 15000);
    expect(sentTo(engine.id).filter((l) => l === 'uci').length).toBe(uciBefore + 1);
    c.ws.close();
    await c.closed;
  });
});

/** A server of the fake engine for one test, closed by the returned function. */
async function fakeServer(
  opts: Partial<Parameters<typeof startGuiServer>[0]> & { args?: string[] } = {},
): Promise<{ server: GuiServer; sentTo: (id: number) => string[]; wsUrl: string; origin: string; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-gui-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  const log: string[] = [];
  const server = await startGuiServer({
    port: 0,
    staticDir: dir,
    engine: [...FAKE_ENGINE_ARGV, ...(opts.args ?? [])],
    engineCwd: ROOT,
    log: (l) => log.push(l),
    handshakeMs: ENGINE_MS,
    ...opts,
  });
  const sentTo = (id: number): string[] =>
    log.flatMap((l) => (l.startsWith(`engine ${id} > `) ? [l.slice(`engine ${id} > `.length)] : []));
  const host = opts.host === undefined || opts.host === '0.0.0.0' ? '127.0.0.1' : opts.host;
  return {
    server,
    sentTo,
    dir,
    wsUrl: `ws://${host}:${server.port}/ws?token=${server.token}`,
    origin: `http://${host}:${server.port}`,
  };
}

/** The threads the engine numbered `id` was last told to use. */
const lastThreads = (sent: string[]): number | undefined => {
  const t = sent.filter((l) => l.startsWith('setoption name Threads value ')).pop();
  return t === undefined ? undefined : Number(t.split(' ').pop());
};

describe('the GUI server for a club: several pages, an engine each', () => {
  it("shares full strength's threads between the pages connected, and says so to each", async () => {
    const { server, sentTo, wsUrl, origin, dir } = await fakeServer({
      args: ['--threads'],
      strength: { threads: 4, hashMb: 16 },
    });
    try {
      const strength = (c: Client): number | undefined => {
        const h = c.messages.filter((m) => m.type === 'hello').pop();
        return h?.type === 'hello' ? h.strength?.threads : undefined;
      };
      const pages = (c: Client): number | undefined => {
        const h = c.messages.filter((m) => m.type === 'hello').pop();
        return h?.type === 'hello' ? h.pages?.open : undefined;
      };
      const a = new Client(wsUrl, origin);
      await a.opened;
      await a.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      const [ea] = server.engines.bridges();
      await a.barrier();
      expect(strength(a)).toBe(4);
      expect(lastThreads(sentTo(ea.id))).toBe(4);
      expect(sentTo(ea.id)).toContain('setoption name Hash value 16');

      // A second page: each gets half, and the first is told.
      const b = new Client(wsUrl, origin);
      await b.opened;
      await b.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      const [, eb] = server.engines.bridges();
      await a.wait((m) => m.type === 'hello' && m.strength?.threads === 2);
      await a.barrier();
      await b.barrier();
      expect([strength(a), strength(b), pages(a), pages(b)]).toEqual([2, 2, 2, 2]);
      expect(lastThreads(sentTo(ea.id))).toBe(2);
      expect(lastThreads(sentTo(eb.id))).toBe(2);

      // A third: one each (4 / 3, rounded down). A page asking for more gets its share.
      const c = new Client(wsUrl, origin);
      await c.opened;
      await c.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      await a.wait((m) => m.type === 'hello' && m.strength?.threads === 1);
      a.send('setoption name Threads value 4');
      await a.barrier();
      expect(lastThreads(sentTo(ea.id))).toBe(1);
      // A limited level asks for one thread and keeps it whatever the share.
      b.send('setoption name Threads value 1');
      await b.barrier();

      // The third goes: two each again; the first page wanted 4 and gets 2, the second keeps 1.
      c.ws.close();
      await c.closed;
      await a.wait((m) => m.type === 'hello' && m.strength?.threads === 2 && m.pages?.open === 2);
      await a.barrier();
      await b.barrier();
      expect(lastThreads(sentTo(ea.id))).toBe(2);
      expect(lastThreads(sentTo(eb.id))).toBe(1);
      // Alone again: the first page's engine gets every thread it asked for.
      b.ws.close();
      await b.closed;
      await a.wait((m) => m.type === 'hello' && m.strength?.threads === 4 && m.pages?.open === 1);
      await a.barrier();
      expect(lastThreads(sentTo(ea.id))).toBe(4);
      // A page asking for more than full strength is refused, as before.
      a.send('setoption name Threads value 5');
      const refused = await a.wait((m) => m.type === 'refused');
      expect(refused.type === 'refused' && refused.reason).toMatch(/Threads may be at most 4/);
      a.ws.close();
      await a.closed;
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('turns a page away when it serves as many as it may, and lets the next one in once a page goes', async () => {
    const { server, wsUrl, origin, dir } = await fakeServer({ most: 2 });
    try {
      const a = new Client(wsUrl, origin);
      const b = new Client(wsUrl, origin);
      await Promise.all([a.opened, b.opened]);
      await a.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      await b.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      expect(a.messages.find((m) => m.type === 'hello')).toMatchObject({ pages: { most: 2 } });
      const c = new Client(wsUrl, origin);
      await c.opened;
      expect(await c.wait((m) => m.type === 'full')).toEqual({ type: 'full', most: 2 });
      expect((await c.closed).code).toBe(4001);
      // The pages in play are untouched.
      a.send('isready');
      await a.waitLine(/^readyok$/);
      expect(a.messages.some((m) => m.type === 'full')).toBe(false);
      a.ws.close();
      await a.closed;
      const d = new Client(wsUrl, origin);
      await d.opened;
      await d.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      expect(server.engines.pages).toBe(2);
      b.ws.close();
      d.ws.close();
      await Promise.all([b.closed, d.closed]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("hands a page's engine, when there is no spare, to the next page as its handshake left it", async () => {
    // One page at most: no spare is started while it is open, so its engine serves the next one.
    const { server, sentTo, wsUrl, origin, dir } = await fakeServer({ most: 1 });
    try {
      const a = new Client(wsUrl, origin);
      await a.opened;
      await a.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      const [engine] = server.engines.bridges();
      a.send('setoption name MultiPV value 3');
      a.send('setoption name UCI_Variant value khet1');
      a.send('position startpos moves c1b2');
      a.send('go infinite');
      await a.waitLine(/^info depth \d+/);
      a.ws.close();
      await a.closed;
      for (let i = 0; i < 100 && engine.outstanding > 0; i++) await sleep(50);
      const sent = sentTo(engine.id);
      expect(sent.slice(sent.indexOf('go infinite'))).toEqual([
        'go infinite',
        'stop',
        'setoption name MultiPV value 1',
        'setoption name UCI_Variant value khet2',
        'ucinewgame',
      ]);
      const b = new Client(wsUrl, origin);
      await b.opened;
      await b.wait((m) => m.type === 'hello' && m.state === 'ready');
      expect(server.engines.bridges()[0].id).toBe(engine.id);
      b.send('position startpos');
      b.send('go depth 2');
      await b.waitLine(/^bestmove /);
      await b.barrier();
      // none of the first page's search reaches the second, and its lines are one each (MultiPV 1)
      expect(b.lines().filter((l) => l.startsWith('bestmove'))).toHaveLength(1);
      expect(b.lines().some((l) => / c1b2 /.test(l) || / multipv [23] /.test(l))).toBe(false);
      b.ws.close();
      await b.closed;
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listens on another address only when told, with the token, Host and Origin checks kept', async () => {
    // The loopback server refuses a Host naming another of this machine's addresses.
    const plain = await fakeServer();
    try {
      const ok = await get(plain.server.port, `/?token=${plain.server.token}`);
      expect(ok.status).toBe(200);
      const other = await get(plain.server.port, `/?token=${plain.server.token}`, {
        Host: `127.0.0.2:${plain.server.port}`,
      });
      expect(other.status).toBe(403);
    } finally {
      await plain.server.close();
      rmSync(plain.dir, { recursive: true, force: true });
    }
    // Every 127.x.y.z is this machine's loopback on Linux: 127.0.0.2 stands for a club's address.
    const { server, wsUrl, origin, dir } = await fakeServer({ host: '127.0.0.2' });
    try {
      expect(server.url).toBe(`http://127.0.0.2:${server.port}/?token=${server.token}`);
      const at = (p: string, headers: Record<string, string> = {}): Promise<Reply> =>
        new Promise((resolve, reject) => {
          const req = request(
            {
              host: '127.0.0.2',
              port: server.port,
              path: p,
              headers: { Host: `127.0.0.2:${server.port}`, ...headers },
            },
            (res) => {
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (d: string) => (body += d));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
            },
          );
          req.on('error', reject);
          req.end();
        });
      expect((await at(`/?token=${server.token}`)).status).toBe(200);
      expect((await at('/')).status).toBe(403);
      expect((await at(`/?token=${server.token}x`)).status).toBe(403);
      expect((await at(`/?token=${server.token}`, { Host: `evil.example:${server.port}` })).status).toBe(403);
      expect((await at(`/?token=${server.token}`, { Origin: 'http://evil.example' })).status).toBe(403);
      expect((await at(`/?token=${server.token}`, { Origin: origin })).status).toBe(200);
      const c = new Client(wsUrl, origin);
      await c.opened;
      await c.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      c.ws.close();
      await c.closed;
      for (const [url, o] of [
        [wsUrl, 'http://evil.example'],
        [wsUrl.replace(/token=[^&]+/, 'token=wrong'), origin],
      ] as const) {
        await expect(new Client(url, o).opened).rejects.toThrow(/HTTP 403/);
      }
      // Nothing listens on 127.0.0.1 at that port.
      await expect(get(server.port, `/?token=${server.token}`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const lan = os.networkInterfaces();
  const lanAddress = Object.values(lan)
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!lanAddress) console.warn('GUI server on every interface: SKIPPED, this machine has no IPv4 address but 127.x.');
  it.skipIf(!lanAddress)('on 0.0.0.0 answers at the addresses of the network too, and names them', async () => {
    const address = lanAddress as string;
    const { server, dir } = await fakeServer({ host: '0.0.0.0' });
    try {
      const url = `http://${address}:${server.port}/?token=${server.token}`;
      expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
      expect(server.networkUrls).toContain(url);
      expect(server.networkUrls.some((u) => u.includes('127.0.0.1'))).toBe(false);
      const r = await fetch(url);
      expect(r.status).toBe(200);
      expect((await fetch(`http://${address}:${server.port}/`)).status).toBe(403);
      expect((await get(server.port, `/?token=${server.token}`)).status).toBe(200);
      const c = new Client(
        `ws://${address}:${server.port}/ws?token=${server.token}`,
        `http://${address}:${server.port}`,
      );
      await c.opened;
      await c.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      c.ws.close();
      await c.closed;
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('thoth gui on the command line', () => {
  it('refuses bad arguments', () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['extra'],
      ['--engine', '"unterminated'],
      ['--start-timeout', '0'],
      ['--start-timeout', 'soon'],
      ['--bogus'],
      ['--host', 'club.example'],
      ['--host', ''],
      ['--tabs', '0'],
    ]) {
      const r = spawnSync(process.execPath, [CLI, 'gui', ...args], { encoding: 'utf8', timeout: scaledMs(60_000) });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^thoth gui: /);
    }
  });

  it('is listed in the help, and its options in thoth gui --help', () => {
    const r = spawnSync(process.execPath, [CLI, 'help'], { encoding: 'utf8', timeout: scaledMs(60_000) });
    expect(r.stdout).toContain('thoth gui [options]');
    const g = spawnSync(process.execPath, [CLI, 'gui', '--help'], { encoding: 'utf8', timeout: scaledMs(60_000) });
    expect(g.stdout).toMatch(/--port N +the port [^]*\(default: 7700\)/);
    expect(g.stdout).toContain('--engine "<command>"');
    expect(g.stdout).toContain('--start-timeout MS');
  });

  it("--start-timeout bounds the engine's handshake, and its failure says how to raise it", async () => {
    const mute = `${process.execPath} -e "setInterval(() => {}, 1000)"`;
    const r = await runProcess(
      [process.execPath, CLI, 'gui', '--port', '0', '--engine', mute, '--start-timeout', '500'],
      {
        idleMs: 60_000,
      },
    );
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /^thoth gui: the engine did not answer 'uci' with 'uciok' within 500 ms \(command: .+\); --start-timeout MS gives it longer \(now 500\)\n$/,
    );
  });
});

describe.skipIf(!REAL_ENGINE)('the GUI server with the real engine', () => {
  it('stops the search when the page goes away mid-search; the next page finds the engine ready and put back', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-gui-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    const server = await startGuiServer({
      port: 0,
      staticDir: dir,
      engine: [process.execPath, CLI],
      engineCwd: ROOT,
      handshakeMs: ENGINE_MS,
    });
    try {
      const wsUrl = `ws://127.0.0.1:${server.port}/ws?token=${server.token}`;
      const origin = `http://127.0.0.1:${server.port}`;
      const a = new Client(wsUrl, origin);
      await a.opened;
      const hello = await a.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      expect(hello.type === 'hello' && hello.handshake.some((l) => /^id name Thoth/.test(l))).toBe(true);
      a.send('setoption name MultiPV value 2');
      a.send('position startpos');
      a.send('go infinite');
      await a.waitLine(/^info depth \d+/, 10000);
      const [engine] = server.engines.bridges();
      a.ws.close();
      await a.closed;
      await until("the engine's bestmove after the server's stop", 5000, () => engine.outstanding === 0);
      expect(engine.outstanding).toBe(0);
      expect(await engine.ping()).toBe(true);
      const b = new Client(wsUrl, origin);
      await b.opened;
      await b.wait((m) => m.type === 'hello' && m.state === 'ready', ENGINE_MS);
      expect(server.engines.bridges()[0].id).toBe(engine.id);
      b.send('isready');
      await b.waitLine(/^readyok$/);
      b.send('position startpos');
      b.send('go depth 1');
      await b.waitLine(/^bestmove [a-j][1-8]/, 10000);
      await b.barrier();
      expect(b.lines().filter((l) => l.startsWith('bestmove'))).toHaveLength(1);
      // MultiPV is back at 1: one line a depth
      expect(b.lines().some((l) => / multipv 2 /.test(l))).toBe(false);
      b.ws.close();
      await b.closed;
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
