/**
 * The page's side of the engine: a WebSocket to the GUI server, the engine's handshake, and a
 * small search manager that keeps the protocol's rules (one `bestmove` per `go`; options only
 * while idle) so the rest of the page just asks for a search and gets its info and best move.
 */
import { parseInfo, type InfoFields, type SearchInfo } from '../../protocol/info';
import type { ClientMessage, EngineState, ServerMessage } from '../messages';

export interface EngineOption {
  name: string;
  type: string;
  default?: string;
  min?: number;
  max?: number;
  vars: string[];
}

/** An `info` line with a principal variation and a score (what the page shows). */
export type InfoLine = InfoFields & Pick<SearchInfo, 'depth' | 'multipv' | 'score' | 'pv'>;

/** The line as the page shows it, or null when it has no depth, score or moves. */
export function pvInfo(line: string): InfoLine | null {
  const r = parseInfo(line);
  if (!r.ok) return null;
  const { depth, score, pv } = r.value;
  if (depth === undefined || score === undefined || pv === undefined || pv.length === 0) return null;
  return { ...r.value, depth, score, pv, multipv: r.value.multipv ?? 1 };
}

export function parseOption(line: string): EngineOption | null {
  const m = /^option\s+name\s+(.+?)\s+type\s+(\S+)(.*)$/.exec(line.trim());
  if (!m) return null;
  const o: EngineOption = { name: m[1], type: m[2], vars: [] };
  const rest = m[3].trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === 'default') o.default = rest[++i];
    else if (rest[i] === 'min') o.min = Number(rest[++i]);
    else if (rest[i] === 'max') o.max = Number(rest[++i]);
    else if (rest[i] === 'var') o.vars.push(rest[++i]);
  }
  return o;
}

export interface SearchRequest {
  /** setoption lines (name → value) to apply before the search; sent only when changed. */
  options: Record<string, string>;
  /** The `position …` command. */
  position: string;
  /** The `go …` command. */
  go: string;
  onInfo?: (info: InfoLine) => void;
  onBestmove?: (move: string, ponder: string | undefined) => void;
}

interface Running {
  req: SearchRequest;
  cancelled: boolean;
}

export type ConnectionState = 'connecting' | 'open' | 'closed' | 'superseded';

export class EngineClient {
  connection: ConnectionState = 'connecting';
  state: EngineState = 'starting';
  name = '';
  command = '';
  message = '';
  options = new Map<string, EngineOption>();
  /** Called when the connection or the engine's state changes. */
  onStatus: () => void = () => {};
  /** Called with engine lines that no search claims (info string, errors). */
  onOther: (line: string) => void = () => {};
  /** Called with commands the server refused. */
  onRefused: (line: string, reason: string) => void = () => {};

  private ws: WebSocket | null = null;
  /** Searches sent and not yet answered, oldest first. */
  private running: Running[] = [];
  /** The next search, waiting for the engine to finish the running ones. */
  private next: SearchRequest | null = null;
  private sentOptions = new Map<string, string>();

  constructor(private readonly url: string) {}

  connect(): void {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.connection = 'open';
      this.onStatus();
    };
    ws.onclose = () => {
      if (this.connection !== 'superseded') this.connection = 'closed';
      this.running = [];
      this.next = null;
      this.onStatus();
    };
    ws.onmessage = (ev) => {
      let m: ServerMessage;
      try {
        m = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      this.onMessage(m);
    };
  }

  get ready(): boolean {
    return this.connection === 'open' && this.state === 'ready';
  }

  /** True while a search is running or waiting to start. */
  get busy(): boolean {
    return this.running.some((r) => !r.cancelled) || this.next !== null;
  }

  private onMessage(m: ServerMessage): void {
    switch (m.type) {
      case 'hello': {
        const wasReady = this.state === 'ready';
        this.state = m.state;
        this.command = m.engine;
        this.message = m.message ?? '';
        this.options.clear();
        for (const l of m.handshake) {
          if (l.startsWith('id name ')) this.name = l.slice(8).trim();
          const o = parseOption(l);
          if (o) this.options.set(o.name.toLowerCase(), o);
        }
        if (!wasReady || m.state !== 'ready') {
          this.running = [];
          this.sentOptions.clear();
        }
        this.onStatus();
        if (m.state === 'ready') this.pump();
        break;
      }
      case 'line':
        this.onLine(m.line);
        break;
      case 'refused':
        this.onRefused(m.line, m.reason);
        break;
      case 'superseded':
        this.connection = 'superseded';
        this.onStatus();
        break;
    }
  }

  private onLine(line: string): void {
    const first = line.trim().split(/\s+/)[0];
    if (first === 'bestmove') {
      const r = this.running.shift();
      const t = line.trim().split(/\s+/);
      const pi = t.indexOf('ponder');
      if (r && !r.cancelled) r.req.onBestmove?.(t[1], pi > 0 ? t[pi + 1] : undefined);
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

  send(line: string): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      const msg: ClientMessage = { type: 'cmd', line };
      this.ws.send(JSON.stringify(msg));
    }
  }

  hasOption(name: string): boolean {
    return this.options.has(name.toLowerCase());
  }

  /** Starts a search, stopping (and forgetting) any running one. */
  search(req: SearchRequest): void {
    this.cancel();
    this.next = req;
    this.pump();
  }

  /** Asks the running search to finish now; its best move is still delivered. */
  stop(): void {
    if (this.running.some((r) => !r.cancelled)) this.send('stop');
  }

  /** Stops any search and drops its results. */
  cancel(): void {
    this.next = null;
    let any = false;
    for (const r of this.running) {
      if (!r.cancelled) any = true;
      r.cancelled = true;
    }
    if (any) this.send('stop');
  }

  /** A new game: the engine forgets what it learnt. */
  newGame(): void {
    this.cancel();
    this.pendingNewGame = true;
    this.pump();
  }
  private pendingNewGame = false;

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
    this.send(req.position);
    this.running.push({ req, cancelled: false });
    this.send(req.go);
  }
}
