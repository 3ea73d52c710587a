/**
 * One game between two engine processes, refereed by the rules core: every move an engine sends
 * is parsed and checked against the position; the clocks are kept here with monotonic time; the
 * game ends by its own rules (Pharaoh hit, threefold repetition, no-removal limit), by
 * adjudication (score window, resignation, ply cap), or by a fault of one engine (crash, hang,
 * illegal move, time forfeit), which that engine loses.
 */
import { performance } from 'node:perf_hooks';
import {
  EDITIONS,
  THOTH_DIALECT,
  type Dialect,
  dialectRules,
  formatDialect,
  formatMove,
  gameStatus,
  parseKfen,
  parseMove,
  type EditionId,
  type Position,
} from '../core/index';
import { parseBestmove } from '../core/bestmove-line';
import { NO_ANSWER_RE } from './errors';
import { parseInfo } from '../core/info';
import type { Score } from '../core/score';
import { Adjudicator, type Adjudication } from './adjudicator';
import type { EngineProcess, EngineSpec } from './engine-process';
import {
  makeRecord,
  pgnDate,
  type GameRecord,
  type MoveRecord,
  type ResultToken,
  type Termination,
} from '../core/record';
import { PlayerClock, describeLimits, goForMove, moveDeadlineMs } from './timecontrol';

/** The optional per-move data of records. */
export interface MoveData {
  nodes: boolean;
  seldepth: boolean;
  pv: boolean;
}

export interface GameSetup {
  /** [first player, second player] (Silver/Red, Gold/Silver in Deflexion). */
  engines: [EngineProcess, EngineProcess];
  names: [string, string];
  kfen: string;
  openingLabel?: string;
  variant: EditionId;
  /** The rules dialect (docs/rules.md §3.1); Thoth's rules when undefined. */
  rules?: Dialect;
  noRemovalLimit: number;
  /** A draw after this many plies (an engine protocol's rule: KEI's 300); 0 or undefined: none. */
  plyLimit?: number;
  /** What the records keep of each move beyond score, depth and time (`-pgnout … nodes=true seldepth=true pv=true`). */
  moveData?: MoveData;
  adjudication: Adjudication;
  pingTimeoutMs: number;
  /** The deadline of a search without a clock (depth=, nodes=); past it the engine loses on time. Undefined: no deadline. */
  searchTimeoutMs?: number;
  event: string;
  /** The records' Site tag (`?` when not given). */
  site?: string;
  round: string;
  /** Tags the record carries after the standard ones (the run's settings). */
  tags?: readonly [string, string][];
  signal?: AbortSignal;
}

export interface GameOutcome {
  record: GameRecord;
  /** The first player's score: 1, ½ or 0. */
  score: number;
  termination: Termination;
  reason: string;
  /** The player (0/1) whose engine faulted, or -1. */
  faultSide: number;
  /** True when that engine's process is gone (crashed, or killed because it stalled). */
  engineLost: boolean;
}

/** What an engine's `info` lines said of its search: the depth and the score of its best line. */
export interface EngineReport {
  depth?: number;
  score?: Score;
  nodes?: number;
  seldepth?: number;
  pv?: string[];
  /** An engine of another protocol: its translator's `info string error: …` (a move it could not read). */
  protocolError?: string;
  /** An engine of another protocol gave up (its translator's `info string resign`: Khet2-AI's `bestmove none`). */
  resigned?: boolean;
}

/**
 * Keeps the depth and score of an engine's `info` lines in `acc`, with the nodes, selective depth
 * and PV of the last line that had a score (other lines, and the lines of other MultiPV lines
 * than the best, are ignored).
 */
export function readInfo(line: string, acc: EngineReport): void {
  const r = parseInfo(line);
  if (!r.ok || (r.value.multipv ?? 1) !== 1) return;
  const { depth, score, nodes, seldepth, pv } = r.value;
  // (a depth past what a record's comment holds is an engine's nonsense: left out)
  if (depth !== undefined && depth <= 999_999_999) acc.depth = depth;
  if (score === undefined) return;
  // nodes, selective depth and PV: those of the last line with a score (none when it had none)
  acc.score = score;
  acc.nodes = nodes;
  acc.seldepth = seldepth;
  acc.pv = pv;
}

const now = (): number => performance.now();

/** Plays one game. Resolves to undefined when the run was aborted (the game is then not recorded). */
export async function playGame(g: GameSetup): Promise<GameOutcome | undefined> {
  const game = new RefereedGame(g);
  const fault = await game.start();
  if (fault !== null) return fault;
  try {
    for (;;) {
      const over = game.judgeBeforeMove();
      if (over) return over;
      const answer = await game.askMove();
      if (!('line' in answer)) return answer.outcome;
      const done = game.playMove(answer.line, answer.elapsed, answer.info);
      if (done) return done;
      game.startPonder(answer.line);
    }
  } finally {
    await game.endPonder();
  }
}

/** The mover's answer: its bestmove line with the time it took, or how the game ended instead. */
type Answer = { line: string; elapsed: number; info: EngineReport } | { outcome: GameOutcome | undefined };

/**
 * What a game's record and rules need besides its engines: the players, the start, the limits as
 * written in the record, the adjudication and the record's tags. The referee (below) and a check of
 * a game played elsewhere (rejudge.ts: a distributed run's coordinator) keep the same sheet.
 */
export type SheetSetup = Omit<GameSetup, 'engines' | 'pingTimeoutMs' | 'searchTimeoutMs' | 'signal'> & {
  /** The players' limits as the record writes them ([first, second], timecontrol.ts describeLimits). */
  timeControls: [string, string];
};

/**
 * The rules' side of one game, with no engine and no clock: the position, the moves so far with
 * what the movers' engines reported, the adjudicator, and how the game ends (its record).
 */
export class Scoresheet {
  readonly colors: readonly [string, string];
  readonly pos: Position;
  readonly moves: MoveRecord[] = [];
  readonly moveTexts: string[] = [];
  private readonly judge: Adjudicator;

  constructor(private readonly g: SheetSetup) {
    this.colors = EDITIONS[g.variant].colorNames;
    const parsed = parseKfen(g.kfen, g.variant, dialectRules(g.rules ?? THOTH_DIALECT));
    if (!parsed.ok) throw new Error(`bad opening KFEN: ${g.kfen}`);
    this.pos = parsed.value;
    this.judge = new Adjudicator(g.adjudication, this.colors);
  }

  finish(score: number, termination: Termination, reason: string, faultSide = -1, engineLost = false): GameOutcome {
    const { g } = this;
    const result: ResultToken = score === 1 ? '1-0' : score === 0 ? '0-1' : '1/2-1/2';
    const record = makeRecord({
      event: g.event,
      site: g.site,
      date: pgnDate(),
      round: g.round,
      players: g.names,
      result,
      variant: g.variant,
      rules: formatDialect(g.rules ?? THOTH_DIALECT),
      kfen: g.kfen,
      timeControl: g.timeControls,
      termination,
      reason,
      opening: g.openingLabel,
      extra: g.tags,
      moves: this.moves,
    });
    return { record, score, termination, reason, faultSide, engineLost };
  }

  loss(side: number, termination: Termination, reason: string, engineLost = false): GameOutcome {
    return this.finish(side === 0 ? 0 : 1, termination, reason, side, engineLost);
  }

  /** The game's end by the rules or by the ply cap, before the side to move is asked. */
  judgeBeforeMove(): GameOutcome | undefined {
    const status = gameStatus(this.pos, { noRemovalLimit: this.g.noRemovalLimit });
    if (status.result === 'win') return this.finish(status.winner === 0 ? 1 : 0, 'normal', status.text);
    if (status.result === 'draw') return this.finish(0.5, 'normal', status.text);
    const limit = this.g.plyLimit ?? 0;
    if (limit > 0 && this.moves.length >= limit) return this.finish(0.5, 'normal', `Draw by the ${limit}-ply limit`);
    const capped = this.judge.beforeMove(this.moves.length);
    if (capped) return this.finish(0.5, 'adjudication', capped.reason);
    return undefined;
  }

  /**
   * The move text of a bestmove, checked: the move, or how the game ends for the mover (no move
   * in a position with legal moves, an illegal move).
   */
  parse(line: string): { move: number } | { outcome: GameOutcome } {
    const side = this.pos.side;
    const name = this.colors[side];
    const text = parseBestmove(line)?.move ?? '';
    if (text === '' || text === '(none)' || text === '0000') {
      return {
        outcome: this.loss(side, 'illegal move', `${name} makes no move ('${line}') in a position with legal moves`),
      };
    }
    const m = parseMove(this.pos, text);
    if (!m.ok) return { outcome: this.loss(side, 'illegal move', `${name} makes an illegal move: ${m.error.message}`) };
    return { move: m.value };
  }

  /** Plays a checked move with what the mover's engine reported; the adjudication's verdict ends the game. */
  play(move: number, elapsed: number, info: EngineReport): GameOutcome | undefined {
    const { g, pos } = this;
    const side = pos.side;
    const canonical = formatMove(move);
    pos.make(move);
    this.moveTexts.push(canonical);
    const score = info.score;
    this.moves.push({
      move: canonical,
      scoreCp: score?.kind === 'cp' ? score.value : undefined,
      mate: score?.kind === 'mate' ? score.value : undefined,
      depth: info.depth,
      timeMs: Math.round(elapsed),
      nodes: g.moveData?.nodes ? info.nodes : undefined,
      seldepth: g.moveData?.seldepth ? info.seldepth : undefined,
      pv: g.moveData?.pv && info.pv !== undefined && info.pv.length > 0 ? info.pv : undefined,
    });
    // Adjudication on the score the mover's engine reported (from its own point of view).
    const verdict = this.judge.afterMove(side, score, pos.moveNumber, pos.winner >= 0);
    if (verdict)
      return verdict.loser < 0
        ? this.finish(0.5, 'adjudication', verdict.reason)
        : this.loss(verdict.loser, 'adjudication', verdict.reason);
    return undefined;
  }
}

/** One game as the referee keeps it: the scoresheet, the engines and their clocks. */
class RefereedGame {
  private readonly names: readonly [string, string];
  private readonly sheet: Scoresheet;
  private readonly specs: EngineSpec[];
  private readonly clocks: (PlayerClock | undefined)[];
  /** The engine (by side) that ponders on the reply it expects (`ponder=true`), while the other thinks. */
  private pondering: ({ expected: string } | undefined)[] = [undefined, undefined];

  constructor(private readonly g: GameSetup) {
    this.specs = [g.engines[0].spec, g.engines[1].spec];
    this.clocks = this.specs.map((s) => (s.limits.tc ? new PlayerClock(s.limits.tc) : undefined));
    const tcs = this.specs.map((s) => describeLimits(s.limits));
    this.sheet = new Scoresheet({ ...g, timeControls: [tcs[0], tcs[1]] });
    this.names = this.sheet.colors;
  }

  private get pos(): Position {
    return this.sheet.pos;
  }

  loss(side: number, termination: Termination, reason: string, engineLost = false): GameOutcome {
    return this.sheet.loss(side, termination, reason, engineLost);
  }

  judgeBeforeMove(): GameOutcome | undefined {
    return this.sheet.judgeBeforeMove();
  }

  /** A new game for both engines, and a ping to see that they are alive and listening: null when they are. */
  async start(): Promise<GameOutcome | undefined | null> {
    const { g, names } = this;
    for (const e of g.engines) e.send('ucinewgame');
    const pings = await Promise.all(g.engines.map((e) => e.ping(g.pingTimeoutMs, g.signal)));
    if (g.signal?.aborted) return undefined;
    for (let side = 0; side < 2; side++) {
      const err = pings[side];
      if (err === undefined) continue;
      const e = g.engines[side];
      if (!e.alive)
        return this.loss(
          side,
          'abandoned',
          `${names[side]}'s engine ${g.names[side]} is gone before the game (${e.exitText()})`,
          true,
        );
      e.kill();
      const why = NO_ANSWER_RE.test(err) ? `${err}; ${this.longerPing()}` : err;
      return this.loss(side, 'stalled', `${names[side]}'s engine ${g.names[side]} stalls: ${why}`, true);
    }
    return null;
  }

  /** Sends the position and the go, and waits for the bestmove within the mover's time. */
  async askMove(): Promise<Answer> {
    const { g, pos, clocks } = this;
    const side = pos.side;
    const eng = g.engines[side];
    const spec = this.specs[side];
    const info: EngineReport = {};
    const hit = await this.settlePonder(side);
    if (hit === 'gone') return { outcome: g.signal?.aborted ? undefined : this.disconnected(side) };
    eng.onLine = (line) => {
      if (spec.proto !== undefined && line.startsWith('info string error: ')) info.protocolError = line.slice(19);
      if (spec.proto !== undefined && line === 'info string resign') info.resigned = true;
      readInfo(line, info);
    };
    if (hit !== 'hit') eng.send(this.positionLine(this.sheet.moveTexts));
    const go = goForMove(spec.limits, side, clocks);
    const clockDeadline = moveDeadlineMs(spec.limits, clocks[side], spec.timeMarginMs);
    const deadline = clockDeadline ?? g.searchTimeoutMs;
    const t0 = now();
    // a ponder hit: the search goes on as the real one, from now on the engine's clock
    eng.send(hit === 'hit' ? 'ponderhit' : go);
    const r = await eng.waitFor(isBestmove, deadline, g.signal);
    // The clock stops when the bestmove's text arrived, not when this process got round to it
    // (other games' moves and ends run on the same thread; bench/referee-overhead.mjs).
    const elapsed = (r.kind === 'line' ? r.at : now()) - t0;
    eng.onLine = undefined;
    if (r.kind === 'aborted') return { outcome: undefined };
    if (r.kind === 'exit') return { outcome: this.disconnected(side) };
    if (r.kind === 'timeout') return { outcome: await this.outOfTime(side, clockDeadline, deadline) };
    return { line: r.line, elapsed, info };
  }

  /** The position command for the moves played (and any after them). */
  private positionLine(moves: readonly string[]): string {
    return moves.length > 0 ? `position kfen ${this.g.kfen} moves ${moves.join(' ')}` : `position kfen ${this.g.kfen}`;
  }

  /**
   * After a move of an engine that ponders (`ponder=true`): it is told to search the position
   * after the reply it expects (`bestmove X ponder Y`) while its opponent thinks, with `go ponder`
   * and the clocks as they stand (UCI).
   */
  startPonder(bestmoveLine: string): void {
    const side = this.pos.side ^ 1; // the engine that just moved
    const spec = this.specs[side];
    if (!spec.ponder || this.pos.winner >= 0) return;
    const expected = parseBestmove(bestmoveLine)?.ponder;
    if (expected === undefined) return;
    const m = parseMove(this.pos, expected);
    if (!m.ok) return; // not a legal reply: nothing to ponder on
    const text = formatMove(m.value);
    const eng = this.g.engines[side];
    eng.send(this.positionLine([...this.sheet.moveTexts, text]));
    eng.send(goForMove(spec.limits, side, this.clocks).replace(/^go/, 'go ponder'));
    this.pondering[side] = { expected: text };
  }

  /**
   * Before `side` is asked for a move: if it pondered, `hit` when the opponent played the reply it
   * expected (the caller sends `ponderhit`), else it is stopped and its answer dropped (`miss`);
   * `none` when it did not ponder; `gone` when the engine ended meanwhile.
   */
  private async settlePonder(side: number): Promise<'hit' | 'miss' | 'none' | 'gone'> {
    const p = this.pondering[side];
    if (!p) return 'none';
    this.pondering[side] = undefined;
    if (this.sheet.moveTexts[this.sheet.moveTexts.length - 1] === p.expected) return 'hit';
    const eng = this.g.engines[side];
    eng.send('stop');
    const r = await eng.waitFor(isBestmove, this.g.pingTimeoutMs, this.g.signal);
    return r.kind === 'line' ? 'miss' : 'gone';
  }

  /** At the game's end: an engine still pondering is stopped and its answer dropped. */
  async endPonder(): Promise<void> {
    for (let side = 0; side < 2; side++) {
      if (!this.pondering[side]) continue;
      this.pondering[side] = undefined;
      const eng = this.g.engines[side];
      eng.send('stop');
      await eng.waitFor(isBestmove, this.g.pingTimeoutMs, this.g.signal);
    }
  }

  private disconnected(side: number): GameOutcome {
    const { g, names } = this;
    return this.loss(
      side,
      'abandoned',
      `${names[side]}'s engine ${g.names[side]} disconnects (${g.engines[side].exitText()})`,
      true,
    );
  }

  /** Out of time: the engine is stopped, and whether it still answers says how the game ends. */
  private async outOfTime(
    side: number,
    clockDeadline: number | undefined,
    deadline: number | undefined,
  ): Promise<GameOutcome | undefined> {
    const { g, names } = this;
    const eng = g.engines[side];
    eng.send('stop');
    const r = await eng.waitFor(isBestmove, g.pingTimeoutMs, g.signal);
    if (r.kind === 'aborted') return undefined;
    const late =
      clockDeadline === undefined
        ? `${g.names[side]}: no 'bestmove' within the search timeout of ${(deadline ?? 0) / 1000} s (-searchtimeout)`
        : g.names[side];
    if (r.kind === 'line') return this.loss(side, 'time forfeit', `${names[side]} loses on time (${late})`);
    if (r.kind === 'exit') return this.disconnected(side);
    eng.kill();
    const after = clockDeadline === undefined ? ` (search timeout of ${(deadline ?? 0) / 1000} s)` : '';
    return this.loss(
      side,
      'stalled',
      `${names[side]}'s engine ${g.names[side]} stalls: no 'bestmove' after 'stop' within ${g.pingTimeoutMs / 1000} s${after}; ${this.longerPing()}`,
      true,
    );
  }

  /** The flag that gives an engine longer to answer `isready` and `stop`, as a stall's reason names it. */
  private longerPing(): string {
    return `-pingtimeout MS gives it longer (now ${this.g.pingTimeoutMs})`;
  }

  /** The mover's answer charged to its clock, checked and played; how the game ends, if it does. */
  playMove(line: string, elapsed: number, info: EngineReport): GameOutcome | undefined {
    const { g, pos, names } = this;
    const side = pos.side;
    const spec = this.specs[side];
    const clock = this.clocks[side];
    if (clock && !clock.charge(elapsed, spec.timeMarginMs)) {
      return this.loss(side, 'time forfeit', `${names[side]} loses on time (${g.names[side]})`);
    }
    if (
      !spec.limits.tc &&
      spec.limits.movetimeMs !== undefined &&
      elapsed > spec.limits.movetimeMs + spec.timeMarginMs
    ) {
      return this.loss(
        side,
        'time forfeit',
        `${names[side]} loses on time (${g.names[side]}: ${Math.round(elapsed)} ms for a ${spec.limits.movetimeMs} ms move)`,
      );
    }
    if (info.protocolError !== undefined)
      return this.loss(side, 'illegal move', `${names[side]} makes an illegal move: ${info.protocolError}`);
    if (info.resigned)
      return this.loss(
        side,
        'normal',
        `${names[side]} resigns (${g.names[side]} sees its game lost and makes no move)`,
      );
    const m = this.sheet.parse(line);
    if ('outcome' in m) return m.outcome;
    return this.sheet.play(m.move, elapsed, info);
  }
}

const isBestmove = (line: string): boolean => parseBestmove(line) !== undefined;
