/**
 * The page's side of the engine: a link that carries protocol lines (a WebSocket to the GUI
 * server, or the engine running inside the page in the static build), the engine's handshake,
 * and a small search manager that keeps the protocol's rules (one `bestmove` per `go`; options
 * only while idle), so the rest of the page asks for a search and gets its info and best move.
 *
 * An engine that does not answer `stop` with `bestmove` within STOP_TIMEOUT_MS is reported as
 * unresponsive (the page offers a restart) instead of being waited for forever.
 */
import { parseBestmove } from '../../../core/bestmove-line';
import { parseOptionLine, type DeclaredOption } from '../../../core/option-line';
import { pvInfo, type InfoLine } from '../../../core/info';
import type { EngineState, FullStrength } from '../../messages';

/** What a link reports to the client. */
export interface LinkEvents {
  /** The engine's state and handshake (on connection and whenever they change). */
  hello(
    state: EngineState,
    engine: string,
    handshake: string[],
    message: string,
    strength?: FullStrength,
    pages?: { open: number; most: number },
  ): void;
  line(text: string): void;
  refused(line: string, reason: string): void;
  /** The server serves `most` pages at once and that many are open: this one gets no engine. */
  full(most: number): void;
  /** The link is gone (the server stopped). */
  closed(): void;
}

/** A way to the engine: the GUI server's WebSocket, or an engine inside the page. */
export interface EngineLink {
  open(events: LinkEvents): void;
  send(line: string): void;
  /** Starts the engine afresh (it stopped answering). */
  restart(): void;
  /** What the page calls the place its engine runs, for messages. */
  readonly where: 'server' | 'page';
}

/** The GUI server's engine, over its WebSocket. */
export class WebSocketLink implements EngineLink {
  readonly where = 'server';
  private ws: WebSocket | null = null;
  constructor(private readonly url: string) {}

  open(ev: LinkEvents): void {
    this.ws?.close();
    const ws = new WebSocket(this.url);
    this.ws = ws;
    let full = false;
    ws.onclose = () => {
      if (this.ws === ws && !full) ev.closed();
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let m: import('../../messages').ServerMessage;
      try {
        m = JSON.parse(String(e.data));
      } catch {
        return;
      }
      switch (m.type) {
        case 'hello':
          return ev.hello(m.state, m.engine, m.handshake, m.message ?? '', m.strength, m.pages);
        case 'line':
          return ev.line(m.line);
        case 'refused':
          return ev.refused(m.line, m.reason);
        case 'full':
          full = true;
          return ev.full(m.most);
      }
    };
  }

  private post(m: import('../../messages').ClientMessage): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  send(line: string): void {
    this.post({ type: 'cmd', line });
  }

  restart(): void {
    this.post({ type: 'restart' });
  }
}

export interface SearchRequest {
  /** setoption lines (name → value) to apply before the search; sent only when changed. */
  options: Record<string, string>;
  /** Send `ucinewgame` first (after the options): the search starts from an empty table and history. */
  newGame?: boolean;
  /** The `position …` command. */
  position: string;
  /** The `go …` command. */
  go: string;
  /** After this long the search is told to stop (a safety net: the engine should stop itself). */
  deadlineMs?: number;
  onInfo?: (info: InfoLine) => void;
  onBestmove?: (move: string, ponder: string | undefined) => void;
}

interface Running {
  req: SearchRequest;
  cancelled: boolean;
  stopSent: boolean;
  timers: ReturnType<typeof setTimeout>[];
}

/** `full`: the server serves as many pages as it may, each with its engine, and has none for this one. */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'full';

/** How long an engine may take to answer `stop` before the page calls it unresponsive. */
const STOP_TIMEOUT_MS = 3000;
/** A page the server had no engine for (as many pages as it serves are open) asks again this often. */
const FULL_RETRY_MS = 5000;

export class EngineClient {
  connection: ConnectionState = 'connecting';
  state: EngineState = 'starting';
  name = '';
  command = '';
  message = '';
  /** The engine did not answer `stop`: searches wait for a restart. */
  unresponsive = false;
  options = new Map<string, DeclaredOption>();
  /** Full strength as the engine was set up (threads: this page's share, table), when the link says. */
  strength: FullStrength | undefined;
  /** The pages the server serves now (this one included) and the most it serves, when it says. */
  pages: { open: number; most: number } | undefined;
  /** Called when the connection or the engine's state changes. */
  onStatus: () => void = () => {};
  /** Called with engine lines that no search claims (info string, errors). */
  onOther: (line: string) => void = () => {};
  /** Called with commands the server refused. */
  onRefused: (line: string, reason: string) => void = () => {};

  /** Searches sent and not yet answered, oldest first. */
  private running: Running[] = [];
  /** The next search, waiting for the engine to finish the running ones. */
  private next: SearchRequest | null = null;
  private sentOptions = new Map<string, string>();
  private pendingNewGame = false;
  /** The next try of a page the server had no engine for. */
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly link: EngineLink,
    readonly stopTimeoutMs = STOP_TIMEOUT_MS,
  ) {}

  /**
   * Connects (again: after the server was gone, or had no engine for this page, which then tries
   * again by itself every FULL_RETRY_MS).
   */
  connect(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.connection = 'connecting';
    this.reset();
    this.link.open({
      hello: (state, engine, handshake, message, strength, pages) => {
        this.strength = strength;
        this.pages = pages;
        this.onHello(state, engine, handshake, message);
      },
      line: (l) => this.onLine(l),
      refused: (l, r) => this.onRefused(l, r),
      full: (most) => {
        this.connection = 'full';
        this.pages = { open: most, most };
        this.reset();
        this.retry = setTimeout(() => this.connect(), FULL_RETRY_MS);
        this.onStatus();
      },
      closed: () => {
        this.connection = 'closed';
        this.reset();
        this.onStatus();
      },
    });
  }

  /** Restarts a stuck engine. */
  restart(): void {
    this.reset();
    this.state = 'starting';
    this.link.restart();
    this.onStatus();
  }

  private reset(): void {
    for (const r of this.running) for (const t of r.timers) clearTimeout(t);
    this.running = [];
    this.next = null;
    this.sentOptions.clear();
    this.unresponsive = false;
  }

  get ready(): boolean {
    return this.connection === 'open' && this.state === 'ready' && !this.unresponsive;
  }

  /** True while a search is running or waiting to start. */
  get busy(): boolean {
    return this.running.some((r) => !r.cancelled) || this.next !== null;
  }

  private onHello(state: EngineState, engine: string, handshake: string[], message: string): void {
    const wasReady = this.connection === 'open' && this.state === 'ready';
    this.connection = 'open';
    this.state = state;
    this.command = engine;
    this.message = message;
    this.options.clear();
    for (const l of handshake) {
      if (l.startsWith('id name ')) this.name = l.slice(8).trim();
      const o = parseOptionLine(l);
      if (o) this.options.set(o.name.toLowerCase(), o);
    }
    if (!wasReady || state !== 'ready') {
      this.reset();
      this.pendingNewGame = true;
    }
    this.onStatus();
    if (state === 'ready') this.pump();
  }

  private onLine(line: string): void {
    const first = line.trim().split(/\s+/)[0];
    const best = parseBestmove(line);
    if (best) {
      const r = this.running.shift();
      if (r) for (const t of r.timers) clearTimeout(t);
      if (this.unresponsive && this.running.length === 0) {
        this.unresponsive = false;
        this.onStatus();
      }
      if (r && !r.cancelled) r.req.onBestmove?.(best.move, best.ponder);
      this.pump();
      return;
    }
    if (first === 'info') {
      // Info belongs to the newest search sent (older ones have been stopped).
      const r = this.running[this.running.length - 1];
      if (this.running.length === 1 && r && !r.cancelled) {
        const info = pvInfo(line);
        if (info) {
          r.req.onInfo?.(info);
          return;
        }
      }
      if (line.includes(' string ')) this.onOther(line);
      return;
    }
    this.onOther(line);
  }

  private send(line: string): void {
    this.link.send(line);
  }

  hasOption(name: string): boolean {
    return this.options.has(name.toLowerCase());
  }

  option(name: string): DeclaredOption | undefined {
    return this.options.get(name.toLowerCase());
  }

  /** Starts a search, stopping (and forgetting) any running one. */
  search(req: SearchRequest): void {
    this.cancel();
    this.next = req;
    this.pump();
  }

  /** The threads a search gets: every one at full strength, one for a limited level. */
  threadsFor(full: boolean): number {
    return full ? (this.strength?.threads ?? 1) : 1;
  }

  /** Stops any search and drops its results. */
  cancel(): void {
    this.next = null;
    for (const r of this.running) {
      if (r.cancelled) continue;
      r.cancelled = true;
      this.sendStop(r);
    }
  }

  private sendStop(r: Running): void {
    if (r.stopSent) return;
    r.stopSent = true;
    this.send('stop');
    r.timers.push(
      setTimeout(() => {
        if (!this.running.includes(r) || this.unresponsive) return;
        this.unresponsive = true;
        this.onStatus();
      }, this.stopTimeoutMs),
    );
  }

  /** A new game: the engine forgets what it learnt. */
  newGame(): void {
    this.cancel();
    this.pendingNewGame = true;
    this.pump();
  }

  private pump(): void {
    if (!this.ready || this.running.length > 0) return;
    if (this.pendingNewGame) {
      this.pendingNewGame = false;
      this.send('ucinewgame');
    }
    const req = this.next;
    if (!req) return;
    this.next = null;
    for (const [name, value] of Object.entries(req.options)) {
      if (!this.hasOption(name)) continue;
      if (this.sentOptions.get(name) === value) continue;
      this.sentOptions.set(name, value);
      this.send(`setoption name ${name} value ${value}`);
    }
    if (req.newGame) this.send('ucinewgame');
    this.send(req.position);
    const r: Running = { req, cancelled: false, stopSent: false, timers: [] };
    this.running.push(r);
    this.send(req.go);
    if (req.deadlineMs !== undefined) r.timers.push(setTimeout(() => this.sendStop(r), req.deadlineMs));
  }
}
