/**
 * Where games are played: a slot is one lane of a run with its own engine processes (kept between
 * games), and GameSlot.play is the one way a game of the schedule is played. The local runner
 * plays one game at a time on each of its `-concurrency` slots; a worker of a distributed run plays
 * a job's game pair on one of its slots with playPair. Both end in the same refereed, clocked and
 * adjudicated game (referee.ts), so a game is the same wherever it runs.
 */
import type { MatchConfig } from './config';
import { EngineProcess, type EngineSpec } from './engine-process';
import { EngineOptionError, EngineStartError, MatchInterrupted, NO_ANSWER_RE } from './errors';
import { playGame, type GameOutcome, type SheetSetup } from './referee';
import { describeLimits } from './timecontrol';
import type { Opening } from './openings';
import type { ScheduledGame } from './schedule';
import { GameTraffic } from './traffic-log';

/** What playing a game needs from a run's settings (plain data: a distributed run sends it to its workers). */
export type GameSettings = Pick<
  MatchConfig,
  | 'engines'
  | 'variant'
  | 'noRemovalLimit'
  | 'adjudication'
  | 'pingTimeoutMs'
  | 'startTimeoutMs'
  | 'searchTimeoutMs'
  | 'event'
  | 'site'
  | 'recover'
  | 'rules'
  | 'plyLimit'
  | 'moveData'
  | 'log'
>;

/** A run's game settings as plain data, in this order (what a distributed run signs and sends to its workers: no -log). */
export function plainGameSettings(cfg: GameSettings): Omit<GameSettings, 'log'> {
  const { engines, variant, rules, noRemovalLimit, plyLimit, moveData, adjudication } = cfg;
  const { pingTimeoutMs, startTimeoutMs, searchTimeoutMs, event, site, recover } = cfg;
  return {
    ...{ engines, variant, rules, noRemovalLimit, plyLimit, moveData, adjudication },
    ...{ pingTimeoutMs, startTimeoutMs, searchTimeoutMs, event, site, recover },
  };
}

/**
 * Starts an engine and does the handshake; returns it, or throws EngineStartError (EngineOptionError
 * for an option it lacks or refuses; MatchInterrupted on an abort).
 */
export async function startEngine(
  spec: EngineSpec,
  s: Pick<GameSettings, 'variant' | 'startTimeoutMs' | 'rules'>,
  signal?: AbortSignal,
): Promise<EngineProcess> {
  const e = new EngineProcess(spec, s.rules);
  e.start();
  const problem = await e.handshake(s.variant, s.startTimeoutMs, signal);
  if (problem !== undefined) {
    e.kill();
    if (problem === 'aborted') throw new MatchInterrupted();
    if (typeof problem !== 'string')
      throw new EngineOptionError(spec.name, e.commandText, problem.option, problem.value, problem.text);
    // a step that took too long names the flag that gives it longer
    const slow = NO_ANSWER_RE.test(problem);
    const reason = slow ? `${problem}; -starttimeout MS gives it longer (now ${s.startTimeoutMs})` : problem;
    throw new EngineStartError(spec.name, e.commandText, reason);
  }
  return e;
}

/**
 * What the record and the rules of game `g` are, from the run's settings alone (no engine): the
 * players, the opening, the limits as the record writes them, the run's tags. A slot plays the game on it; a
 * distributed run's coordinator judges a worker's report of it against it (rejudge.ts).
 */
export function gameSheet(
  s: GameSettings,
  names: readonly string[],
  g: ScheduledGame,
  opening: Opening,
  tags: readonly [string, string][] = [],
): SheetSetup {
  return {
    names: [names[g.first], names[g.second]],
    kfen: opening.kfen,
    openingLabel: opening.label,
    variant: s.variant,
    rules: s.rules,
    noRemovalLimit: s.noRemovalLimit,
    plyLimit: s.plyLimit,
    moveData: s.moveData,
    adjudication: s.adjudication,
    event: s.event,
    site: s.site,
    round: g.roundTag,
    tags,
    timeControls: [describeLimits(s.engines[g.first].limits), describeLimits(s.engines[g.second].limits)],
  };
}

export class GameSlot {
  /**
   * @param names  the players' names by engine index (as in records and tables)
   * @param note   receives a line when an engine is restarted
   * @param engines engines already started (by engine index), which the slot then owns
   * @param tags   tags every record of the run carries (its settings, run-settings.ts)
   */
  constructor(
    private readonly s: GameSettings,
    private readonly names: readonly string[],
    private readonly signal: AbortSignal,
    private readonly note: (line: string) => void,
    readonly engines = new Map<number, EngineProcess>(),
    private readonly tags: readonly [string, string][] = [],
  ) {}

  /**
   * Plays game `g` from `opening` with this slot's engines, starting those it lacks (and, with
   * `recover`, restarting those that died). Resolves to undefined when the run was aborted; throws
   * EngineStartError when an engine cannot start, MatchInterrupted on an abort while starting.
   * `signal` (the slot's by default) aborts this game.
   */
  async play(g: ScheduledGame, opening: Opening, signal = this.signal): Promise<GameOutcome | undefined> {
    const engines: EngineProcess[] = [];
    for (const idx of [g.first, g.second]) {
      let e = this.engines.get(idx);
      if (!e || (!e.alive && this.s.recover)) {
        if (e) this.note(`Restarting engine ${this.names[idx]} (${e.exitText()})`);
        e = await startEngine(this.s.engines[idx], this.s, signal);
        this.engines.set(idx, e);
      }
      engines.push(e);
    }
    const log = this.s.log;
    const traffic = log && new GameTraffic(engines, [this.names[g.first], this.names[g.second]]);
    const outcome = await playGame({
      ...gameSheet(this.s, this.names, g, opening, this.tags),
      engines: [engines[0], engines[1]],
      pingTimeoutMs: this.s.pingTimeoutMs,
      searchTimeoutMs: this.s.searchTimeoutMs,
      signal,
    });
    if (traffic && log)
      traffic.finish(engines, log, `game ${g.index + 1} (${this.names[g.first]} vs ${this.names[g.second]})`, outcome);
    return outcome;
  }

  /** Forgets engines that are gone, so that the next game starts them afresh. */
  dropDead(): void {
    for (const [i, e] of this.engines) if (!e.alive) this.engines.delete(i);
  }

  /** Ends the engines: `quit` (or at once when `kill`). */
  async close(kill: boolean): Promise<void> {
    await Promise.all([...this.engines.values()].map((e) => (kill ? Promise.resolve(e.kill()) : e.quit())));
    this.engines.clear();
  }
}

/** A game of a pair as a slot played it: its place in the schedule and its outcome. */
export interface SlotGame {
  game: ScheduledGame;
  outcome: GameOutcome;
}

/**
 * Plays the games of one pair (the same opening, colours swapped; or a lone game) in turn on one
 * slot. It stops early when `signal` (or the slot's) aborts (`aborted`), or after a game that lost an engine
 * when the run does not `recover`: that run stops on the fault, as a local one does.
 */
export async function playPair(
  slot: GameSlot,
  games: readonly ScheduledGame[],
  opening: Opening,
  recover: boolean,
  signal?: AbortSignal,
): Promise<{ played: SlotGame[]; aborted: boolean }> {
  const played: SlotGame[] = [];
  for (const game of games) {
    const outcome = await slot.play(game, opening, signal);
    if (!outcome) return { played, aborted: true };
    played.push({ game, outcome });
    if (outcome.engineLost && !recover) break;
  }
  return { played, aborted: false };
}
