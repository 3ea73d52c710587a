/**
 * One game between two engine processes, refereed by the rules core: every move an engine sends
 * is parsed and checked against the position; the clocks are kept here with monotonic time; the
 * game ends by its own rules (Pharaoh hit, threefold repetition, no-removal limit), by
 * adjudication (score window, resignation, ply cap), or by a fault of one engine (crash, hang,
 * illegal move, time forfeit), which that engine loses.
 */
import { performance } from 'node:perf_hooks';
import { EDITIONS, formatMove, gameStatus, parseKfen, parseMove, type EditionId, type Position } from '../core/index';
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

export interface GameSetup {
  /** [first player, second player] (Silver/Red, Gold/Silver in Deflexion). */
  engines: [EngineProcess, EngineProcess];
  names: [string, string];
  kfen: string;
  openingLabel?: string;
  variant: EditionId;
  noRemovalLimit: number;
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
}

/**
 * Keeps the depth and score of an engine's `info` lines in `acc` (other lines, and the lines of
 * other MultiPV lines than the best, are ignored).
 */
export function readInfo(line: string, acc: EngineReport): void {
  const r = parseInfo(line);
  if (!r.ok || (r.value.multipv ?? 1) !== 1) return;
  const { depth, score } = r.value;
  if (depth !== undefined) acc.depth = depth;
  if (score !== undefined) acc.score = score;
}

const now = (): number => performance.now();

/** Plays one game. Resolves to undefined when the run was aborted (the game is then not recorded). */
export async function playGame(g: GameSetup): Promise<GameOutcome | undefined> {
  const game = new RefereedGame(g);
  const fault = await game.start();
  if (fault !== null) return fault;
  for (;;) {
    const over = game.judgeBeforeMove();
    if (over) return over;
    const answer = await game.askMove();
    if (!('line' in answer)) return answer.outcome;
    const done = game.playMove(answer.line, answer.elapsed, answer.info);
    if (done) return done;
  }
}

/** The mover's answer: its bestmove line with the time it took, or how the game ended instead. */
type Answer = { line: string; elapsed: number; info: EngineReport } | { outcome: GameOutcome | undefined };

/** One game as the referee keeps it: the position, the record so far, the clocks and the adjudicator. */
class RefereedGame {
  private readonly names: readonly [string, string];
  private readonly pos: Position;
  private readonly moves: MoveRecord[] = [];
  private readonly moveTexts: string[] = [];
  private readonly specs: EngineSpec[];
  private readonly clocks: (PlayerClock | undefined)[];
  private readonly judge: Adjudicator;
  private readonly tcs: string[];

  constructor(private readonly g: GameSetup) {
    this.names = EDITIONS[g.variant].colorNames;
    const parsed = parseKfen(g.kfen, g.variant);
    if (!parsed.ok) throw new Error(`bad opening KFEN: ${g.kfen}`);
    this.pos = parsed.value;
    this.specs = [g.engines[0].spec, g.engines[1].spec];
    this.clocks = this.specs.map((s) => (s.limits.tc ? new PlayerClock(s.limits.tc) : undefined));
    this.judge = new Adjudicator(g.adjudication, this.names);
    this.tcs = this.specs.map((s) => describeLimits(s.limits));
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
      kfen: g.kfen,
      timeControl: [this.tcs[0], this.tcs[1]],
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
      const why = /^no '\w+' within /.test(err) ? `${err}; ${this.longerPing()}` : err;
      return this.loss(side, 'stalled', `${names[side]}'s engine ${g.names[side]} stalls: ${why}`, true);
    }
    return null;
  }

  /** The game's end by the rules or by the ply cap, before the side to move is asked. */
  judgeBeforeMove(): GameOutcome | undefined {
    const status = gameStatus(this.pos, { noRemovalLimit: this.g.noRemovalLimit });
    if (status.result === 'win') return this.finish(status.winner === 0 ? 1 : 0, 'normal', status.text);
    if (status.result === 'draw') return this.finish(0.5, 'normal', status.text);
    const capped = this.judge.beforeMove(this.moves.length);
    if (capped) return this.finish(0.5, 'adjudication', capped.reason);
    return undefined;
  }

  /** Sends the position and the go, and waits for the bestmove within the mover's time. */
  async askMove(): Promise<Answer> {
    const { g, pos, clocks } = this;
    const side = pos.side;
    const eng = g.engines[side];
    const spec = this.specs[side];
    const info: EngineReport = {};
    eng.onLine = (line) => readInfo(line, info);
    eng.send(
      this.moveTexts.length > 0
        ? `position kfen ${g.kfen} moves ${this.moveTexts.join(' ')}`
        : `position kfen ${g.kfen}`,
    );
    const go = goForMove(spec.limits, side, clocks);
    const clockDeadline = moveDeadlineMs(spec.limits, clocks[side], spec.timeMarginMs);
    const deadline = clockDeadline ?? g.searchTimeoutMs;
    const t0 = now();
    eng.send(go);
    const r = await eng.waitFor(isBestmove, deadline, g.signal);
    const elapsed = now() - t0;
    eng.onLine = undefined;
    if (r.kind === 'aborted') return { outcome: undefined };
    if (r.kind === 'exit') return { outcome: this.disconnected(side) };
    if (r.kind === 'timeout') return { outcome: await this.outOfTime(side, clockDeadline, deadline) };
    return { line: r.line, elapsed, info };
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
    const text = line.split(/\s+/)[1] ?? '';
    if (text === '' || text === '(none)' || text === '0000') {
      return this.loss(side, 'illegal move', `${names[side]} makes no move ('${line}') in a position with legal moves`);
    }
    const m = parseMove(pos, text);
    if (!m.ok) return this.loss(side, 'illegal move', `${names[side]} makes an illegal move: ${m.error.message}`);
    const canonical = formatMove(m.value);
    pos.make(m.value);
    this.moveTexts.push(canonical);
    const score = info.score;
    this.moves.push({
      move: canonical,
      scoreCp: score?.kind === 'cp' ? score.value : undefined,
      mate: score?.kind === 'mate' ? score.value : undefined,
      depth: info.depth,
      timeMs: Math.round(elapsed),
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

function isBestmove(line: string): boolean {
  return line === 'bestmove' || line.startsWith('bestmove ');
}
