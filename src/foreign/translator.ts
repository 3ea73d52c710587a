/**
 * A translator between Thoth's protocol (protocol.md), as the tournament runner and the GUI speak
 * it, and another Khet engine's own protocol. The runner and the GUI talk to every engine as to
 * Thoth; the translator keeps the position in Thoth's terms (so that moves can be written and read
 * both ways), turns each command into the engine's lines, and each of the engine's lines into
 * Thoth's. What the engine's protocol cannot say is answered at once with `info string error: …`.
 * Pure: no I/O (translated-process.ts runs it between a child process and its user).
 */
import {
  type Dialect,
  dialectRules,
  formatMove,
  isSetupName,
  parseKfen,
  parseMove,
  type Position,
  SETUPS,
} from '../core/index';
import { formatInfo, type InfoFields, parseInfo } from '../core/info';
import { err, ok, type Result } from '../core/result';

/** What one line to the translator gives: lines for the engine, and lines answered at once to Thoth's side. */
export interface Translation {
  toEngine: string[];
  toThoth: string[];
  /** Send the engine `stop` this many ms after these lines, unless it has answered (a wall-clock move time). */
  stopAfterMs?: number;
}

/** A `go` as Thoth's protocol has it. */
export interface ForeignGo {
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  infinite: boolean;
  ponder: boolean;
  /** Arguments the translator does not handle (mate, searchmoves, perft). */
  other?: string;
}

const GO_NUMBERS = ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'movetime', 'depth', 'nodes'] as const;

/** Reads the arguments of a `go` line. */
function parseForeignGo(tokens: readonly string[]): Result<ForeignGo, string> {
  const g: ForeignGo = { infinite: false, ponder: false };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const n = (GO_NUMBERS as readonly string[]).indexOf(t);
    if (n >= 0) {
      const v = tokens[i + 1];
      if (v === undefined || !/^-?\d+$/.test(v)) return err(`${t} needs a whole number`);
      (g as unknown as Record<string, number>)[t] = Number(v);
      i++;
    } else if (t === 'p1time' || t === 'p2time' || t === 'p1inc' || t === 'p2inc') {
      const v = tokens[i + 1];
      if (v === undefined || !/^-?\d+$/.test(v)) return err(`${t} needs a whole number`);
      const name = { p1time: 'wtime', p2time: 'btime', p1inc: 'winc', p2inc: 'binc' }[t] as 'wtime';
      g[name] = Number(v);
      i++;
    } else if (t === 'infinite') g.infinite = true;
    else if (t === 'ponder') g.ponder = true;
    else return ok({ ...g, other: t });
  }
  return ok(g);
}

/** A score without its unit (`score -35`), as some adapters' engines print it: read as centipawns. */
export const BARE_SCORE_RE = /\bscore (-?\d+)/;

/**
 * The time to give one move from a clock, for an engine whose protocol takes a move time and no
 * clock (docs/match.md, "Other engines"): the remaining time over the moves to go (25 when the
 * control is sudden death) plus three quarters of the increment, at most a quarter of the time
 * left, at least 1 ms.
 */
export function moveTimeFromClock(time: number, inc: number, movestogo?: number): number {
  const share = time / Math.max(1, movestogo ?? 25) + 0.75 * inc;
  return Math.max(1, Math.floor(Math.min(share, time / 4)));
}

export abstract class Translator {
  /** The engine's protocol, as `proto=` names it. */
  abstract readonly protocol: string;
  /** The position as Thoth's side last set it (the Classic start before any). */
  protected pos: Position;
  /** The KFEN it started from and the moves since, in Thoth's notation. */
  protected startKfen: string;
  protected moves: string[] = [];

  constructor(readonly dialect: Dialect) {
    this.startKfen = SETUPS.khet2.classic;
    this.pos = this.load(this.startKfen);
  }

  /** Parses a KFEN under the dialect's rules (it must be valid: callers check). */
  protected load(kfen: string): Position {
    const r = parseKfen(kfen, 'khet2', dialectRules(this.dialect));
    if (!r.ok) throw new Error(`bad KFEN ${kfen}`);
    return r.value;
  }

  /** A line of Thoth's protocol from the runner or the GUI. */
  fromThoth(line: string): Translation {
    const t = line.trim().split(/\s+/);
    const cmd = t[0] ?? '';
    switch (cmd) {
      case '':
        return { toEngine: [], toThoth: [] };
      case 'uci':
      case 'ugi':
      case 'uki':
        return this.handshake();
      case 'isready':
        return this.ping();
      case 'ucinewgame':
      case 'uginewgame':
      case 'ukinewgame':
        return this.newGame();
      case 'setoption':
        return this.setOption(line);
      case 'position': {
        const r = this.readPosition(t.slice(1));
        if (!r.ok) return this.refuse(`position: ${r.error}`);
        return { toEngine: this.positionLines(), toThoth: [] };
      }
      case 'go': {
        const g = parseForeignGo(t.slice(1));
        if (!g.ok) return this.refuse(`go: ${g.error}; nothing started`);
        if (g.value.other !== undefined)
          return this.refuse(`go: ${this.protocol} takes no '${g.value.other}'; nothing started`);
        if (g.value.ponder) return this.refuse(`go: ${this.protocol} engines do not ponder; nothing started`);
        const lines = this.goLines(g.value);
        if (!lines.ok) return this.refuse(`go: ${lines.error}; nothing started`);
        return Array.isArray(lines.value) ? { toEngine: lines.value, toThoth: [] } : lines.value;
      }
      case 'stop':
        return { toEngine: this.stopLines(), toThoth: [] };
      case 'ponderhit':
        return this.refuse(`ponderhit: ${this.protocol} engines do not ponder`);
      case 'quit':
        return { toEngine: this.quitLines(), toThoth: [] };
      default:
        return this.refuse(`${cmd}: not in the ${this.protocol} protocol`);
    }
  }

  /** An answer at once: `info string error: …`. */
  protected refuse(text: string): Translation {
    return { toEngine: [], toThoth: [`info string error: ${text}`] };
  }

  /** Reads `startpos | setup S | S | kfen K | fen K`, then `moves …`, into the position (kept as it was on an error). */
  private readPosition(t: string[]): Result<void, string> {
    const movesAt = t.indexOf('moves');
    const head = movesAt < 0 ? t : t.slice(0, movesAt);
    const moves = movesAt < 0 ? [] : t.slice(movesAt + 1);
    let kfen: string | undefined;
    const what = head[0];
    if (what === 'startpos') kfen = SETUPS.khet2.classic;
    else if (what === 'setup' || (what !== undefined && isSetupName(what))) {
      const name = what === 'setup' ? head[1] : what;
      kfen = name !== undefined && isSetupName(name) ? SETUPS.khet2[name] : undefined;
      if (kfen === undefined) return err(`unknown setup '${name ?? ''}'`);
    } else if (what === 'kfen' || what === 'fen') kfen = head.slice(1).join(' ');
    else return err(`expected startpos, setup, kfen or fen, not '${what ?? ''}'`);
    const parsed = parseKfen(kfen, 'khet2', dialectRules(this.dialect));
    if (!parsed.ok) return err(`bad KFEN: ${parsed.error.message}`);
    const pos = parsed.value;
    const texts: string[] = [];
    for (const m of moves) {
      const r = parseMove(pos, m);
      if (!r.ok) return err(r.error.message);
      texts.push(formatMove(r.value));
      pos.make(r.value);
    }
    this.startKfen = kfen;
    this.moves = texts;
    this.pos = pos;
    return ok(undefined);
  }

  /** The start position (a fresh Position) and each move played from it, as numbers: for writers that replay. */
  protected replay(): { start: Position; moves: number[] } {
    const start = this.load(this.startKfen);
    const scratch = start.clone();
    const moves: number[] = [];
    for (const text of this.moves) {
      const r = parseMove(scratch, text);
      if (!r.ok) throw new Error(`replay: ${text}`);
      moves.push(r.value);
      scratch.make(r.value);
    }
    return { start, moves };
  }

  /** The moves of the position's history written in the engine's notation, each in its own position. */
  protected foreignMoves(write: (pos: Position, m: number) => string): string[] {
    const { start, moves } = this.replay();
    const out: string[] = [];
    for (const m of moves) {
      out.push(write(start, m));
      start.make(m);
    }
    return out;
  }

  /**
   * One line from the engine: Thoth's lines for it. `bestmove` is read in the engine's notation
   * against the position of the last `go`; a move that cannot be read (not in the engine's
   * notation, or illegal) comes after `info string error: <protocol>: … in '<line>'`, as the
   * engine wrote it: the referee then judges it an illegal move and quotes that line.
   */
  fromEngine(line: string): string[] {
    const t = line.trim();
    if (t === '') return [];
    if (t === 'bestmove' || t.startsWith('bestmove ')) {
      const word = t.split(/\s+/)[1] ?? '';
      if (this.isNoMove(word)) return ['bestmove (none)'];
      const m = this.readMove(this.pos, word);
      if (m.ok) return [`bestmove ${formatMove(m.value)}`];
      // a protocol fault: said first, so that the referee names it (referee.ts)
      return [`info string error: ${this.protocol}: ${m.error} in '${t}'`, `bestmove ${word}`];
    }
    return this.engineLine(t);
  }

  /** The words an engine uses for "no move". */
  protected isNoMove(word: string): boolean {
    return word === '' || word === '(none)' || word === 'none' || word === '0000';
  }

  /** An info line in the engine's own form, read as fields (undefined: not an info line). */
  protected readInfo(line: string): InfoFields | undefined {
    if (!line.startsWith('info ') || line.startsWith('info string')) return undefined;
    const r = parseInfo(line);
    return r.ok ? r.value : undefined;
  }

  /** The info fields with the PV translated into Thoth's notation (dropped from the first move that does not read). */
  protected thothInfo(info: InfoFields): string {
    if (info.pv !== undefined) {
      const pos = this.pos.clone();
      const pv: string[] = [];
      for (const w of info.pv) {
        const m = this.readMove(pos, w);
        if (!m.ok) break;
        pv.push(formatMove(m.value));
        pos.make(m.value);
        if (pos.winner >= 0) break;
      }
      info = { ...info, pv: pv.length > 0 ? pv : undefined };
    }
    return formatInfo(info);
  }

  // What each protocol does.
  protected abstract handshake(): Translation;
  protected abstract ping(): Translation;
  protected abstract newGame(): Translation;
  protected abstract setOption(line: string): Translation;
  /** The engine's lines that set the current position (this.startKfen and this.moves). */
  protected abstract positionLines(): string[];
  protected abstract goLines(g: ForeignGo): Result<string[] | Translation, string>;
  protected abstract stopLines(): string[];
  protected abstract quitLines(): string[];
  /** A move in the engine's notation, read in `pos` (Thoth's move, or why not). */
  abstract readMove(pos: Position, text: string): Result<number, string>;
  /** A move of `pos` in the engine's notation. */
  abstract writeMove(pos: Position, m: number): string;
  /** Any other line of the engine's. */
  protected abstract engineLine(line: string): string[];
}
