/**
 * `thoth tune`'s loop: SPSA (src/match/spsa.ts) over the match runner. Each iteration plays game
 * pairs between the engine with θ + c_k Δ and the same engine with θ − c_k Δ (options by name),
 * updates θ by the result and hands the state over to be saved before the next one.
 */
import { parseMatchArgs, type MatchConfig } from './config';
import type { MatchSummary } from './ledger';
import { spsaPerturb, spsaUpdate, type SpsaState } from './spsa';

export interface TuneSettings {
  /** The engine's command line (both sides run it). */
  engine: string;
  /** Game pairs an iteration. */
  pairs: number;
  /** The match flags every iteration shares: -each tc=…, -openings …, -concurrency …, -distributed …. */
  matchFlags: string[];
}

/** Runs one match (locally or on workers) and returns its summary; a match that cannot begin throws its typed error. */
export type PlayMatch = (cfg: MatchConfig) => Promise<MatchSummary>;

/** The plus side's wins minus its losses (engine 0 is the plus side). */
function plusResult(summary: MatchSummary): number {
  let r = 0;
  for (const f of summary.finished) {
    const plus = f.game.first === 0 ? f.score : 1 - f.score;
    r += 2 * plus - 1;
  }
  return Math.round(r);
}

/** The `thoth match` arguments of iteration k. */
function iterationArgs(s: TuneSettings, state: SpsaState, plus: number[], minus: number[]): string[] {
  const opts = (v: number[]): string[] => state.params.map((p, i) => `option.${p.name}=${v[i]}`);
  return [
    '-engine',
    `cmd=${s.engine}`,
    'name=plus',
    ...opts(plus),
    '-engine',
    `cmd=${s.engine}`,
    'name=minus',
    ...opts(minus),
    '-rounds',
    String(s.pairs),
    '-games',
    '2',
    '-srand',
    String((state.seed + state.k * 7919) >>> 0),
    '-ratinginterval',
    '0',
    ...s.matchFlags,
  ];
}

/**
 * Plays iterations until the state's last one, or until `signal` aborts or a match stops early
 * (that iteration is not counted: the same command plays it again). Returns the state reached. A
 * match that cannot begin throws its error, the state of the iterations before it saved already.
 */
export async function runTune(
  s: TuneSettings,
  start: SpsaState,
  play: PlayMatch,
  save: (state: SpsaState) => void,
  write: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ state: SpsaState; stopped?: string }> {
  let state = start;
  while (state.k <= state.iterations) {
    if (signal?.aborted) return { state, stopped: 'interrupted' };
    const { plus, minus } = spsaPerturb(state);
    const argv = iterationArgs(s, state, plus, minus);
    const cfg = parseMatchArgs(argv);
    if (!cfg.ok) return { state, stopped: cfg.error.message };
    const summary = await play(cfg.value);
    if (summary.stop !== 'done') return { state, stopped: summary.message ?? summary.stop };
    const result = plusResult(summary);
    state = spsaUpdate(state, result, summary.finished.length);
    save(state);
    const theta = state.params.map((p, i) => `${p.name}=${state.theta[i].toFixed(2)}`).join(' ');
    write(
      `iteration ${state.k - 1}/${state.iterations}: plus ${plus.join(',')} minus ${minus.join(',')} result ${result >= 0 ? '+' : ''}${result}; ${theta}`,
    );
  }
  return { state };
}
