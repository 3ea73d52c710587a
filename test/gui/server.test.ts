/**
 * The GUI server: token, Host and Origin checks, static files only from its folder, only
 * allowed commands forwarded, and a page that closes mid-search leaves the engine idle.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  let logFile: string;
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
    logFile = path.join(dir, 'engine.log');
    server = await startGuiServer({
      port: 0,
      staticDir,
      engine: [...FAKE_ENGINE_ARGV, '--log', logFile],
      engineCwd: ROOT,
      // The tests' waits judge the engine's start (test/patience.ts), not the server's 10 s.
      handshakeMs: 0,
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
    const hello = await c.wait((m) => m.type === 'hello' && m.state === 'ready', 15000);
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
    const log = readFileSync(logFile, 'utf8');
    expect(log).not.toMatch(/quit|perft|value 8192/);
    // `uci` was answered from the handshake, not sent again.
    expect(log.match(/^uci$/gm)).toHaveLength(1);
    c.ws.close();
    await c.closed;
  });

  it('stops the search when the page goes away mid-search, leaving the engine idle and ready', async () => {
    const a = new Client(wsUrl, origin);
    await a.opened;
    await a.wait((m) => m.type === 'hello' && m.state === 'ready', 15000);
    a.send('position startpos moves c1b2');
    a.send('go infinite');
    await a.waitLine(/^info depth \d+/);
    expect(server.bridge.outstanding).toBe(1);
    a.ws.close();
    await a.closed;
    // The server sends `stop`, the engine answers `bestmove`, and nobody receives it.
    await until("the engine's bestmove after the server's stop", 2500, () => server.bridge.outstanding === 0);
    expect(server.bridge.outstanding).toBe(0);
    expect(server.bridge.orphans).toBe(0);
    const log = readFileSync(logFile, 'utf8').trim().split('\n');
    expect(log.slice(-2)).toEqual(['go infinite', 'stop']);
    expect(await server.bridge.ping()).toBe(true);

    // The next page finds it ready, and sees none of the old search's output.
    const b = new Client(wsUrl, origin);
    await b.opened;
    await b.wait((m) => m.type === 'hello' && m.state === 'ready');
    b.send('isready');
    await b.waitLine(/^readyok$/);
    b.send('position startpos');
    b.send('go depth 2');
    await b.waitLine(/^bestmove /);
    await b.barrier();
    expect(b.lines().filter((l) => l.startsWith('bestmove'))).toHaveLength(1);
    expect(b.lines().some((l) => l.includes('pv') && l.includes('time') && / c1b2 /.test(l))).toBe(false);
    expect(server.bridge.outstanding).toBe(0);
    b.ws.close();
    await b.closed;
  });

  it('hands the engine to the newest page and tells the old one', async () => {
    const a = new Client(wsUrl, origin);
    await a.opened;
    await a.wait((m) => m.type === 'hello');
    a.send('position startpos');
    a.send('go infinite');
    await a.waitLine(/^info /);
    const b = new Client(wsUrl, origin);
    await b.opened;
    await a.wait((m) => m.type === 'superseded');
    expect((await a.closed).code).toBe(4000);
    b.send('isready');
    await b.waitLine(/^readyok$/);
    await until("the engine's bestmove after the server's stop", 2500, () => server.bridge.outstanding === 0);
    expect(server.bridge.outstanding).toBe(0);
    b.ws.close();
    await b.closed;
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
    await c.wait((m) => m.type === 'hello' && m.state === 'ready', 15000);
    const uciBefore = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l === 'uci').length;
    const seen = c.messages.length;
    c.ws.send(JSON.stringify({ type: 'restart' }));
    await c.wait((m) => m.type === 'hello' && m.state === 'starting' && c.messages.indexOf(m) >= seen);
    await c.wait((m) => m.type === 'hello' && m.state === 'ready' && c.messages.indexOf(m) >= seen, 15000);
    expect(
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l === 'uci').length,
    ).toBe(uciBefore + 1);
    c.ws.close();
    await c.closed;
  });
});

describe('thoth gui on the command line', () => {
  it('refuses bad arguments', () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['extra'],
      ['--engine', '"unterminated'],
      ['--handshake-timeout', '-1'],
      ['--handshake-timeout', 'soon'],
      ['--bogus'],
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
    expect(g.stdout).toMatch(/--handshake-timeout MS +how long the engine may take [^]*\(default: 10000\)/);
  });

  it("--handshake-timeout bounds the engine's handshake, and its failure says how to raise it", async () => {
    const mute = `${process.execPath} -e "setInterval(() => {}, 1000)"`;
    const r = await runProcess(
      [process.execPath, CLI, 'gui', '--port', '0', '--engine', mute, '--handshake-timeout', '500'],
      {
        idleMs: 60_000,
      },
    );
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /^thoth gui: the engine did not answer 'uci' with 'uciok' within 500 ms \(command: .+\) \(a slow or busy machine may need a larger --handshake-timeout\)\n$/,
    );
  });
});

describe.skipIf(!REAL_ENGINE)('the GUI server with the real engine', () => {
  it('stops the search when the page goes away mid-search, leaving the engine idle and ready', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'thoth-gui-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    const server = await startGuiServer({
      port: 0,
      staticDir: dir,
      engine: [process.execPath, CLI],
      engineCwd: ROOT,
      handshakeMs: 0,
    });
    try {
      const wsUrl = `ws://127.0.0.1:${server.port}/ws?token=${server.token}`;
      const origin = `http://127.0.0.1:${server.port}`;
      const a = new Client(wsUrl, origin);
      await a.opened;
      const hello = await a.wait((m) => m.type === 'hello' && m.state === 'ready', 20000);
      expect(hello.type === 'hello' && hello.handshake.some((l) => /^id name Thoth/.test(l))).toBe(true);
      a.send('position startpos');
      a.send('go infinite');
      await a.waitLine(/^info depth \d+/, 10000);
      a.ws.close();
      await a.closed;
      await until("the engine's bestmove after the server's stop", 3000, () => server.bridge.outstanding === 0);
      expect(server.bridge.outstanding).toBe(0);
      expect(await server.bridge.ping()).toBe(true);
      const b = new Client(wsUrl, origin);
      await b.opened;
      b.send('isready');
      await b.waitLine(/^readyok$/);
      b.send('position startpos');
      b.send('go depth 1');
      await b.waitLine(/^bestmove [a-j][1-8]/, 10000);
      await b.barrier();
      expect(b.lines().filter((l) => l.startsWith('bestmove'))).toHaveLength(1);
      b.ws.close();
      await b.closed;
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
