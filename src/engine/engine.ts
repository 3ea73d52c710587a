/**
 * The engine beneath the protocol (as Stockfish's engine.cpp lies beneath its uci.cpp): it owns
 * the position, the network, the options and what setting them does, the search threads (go,
 * stop, ponderhit, holding bestmove back while pondering or searching without end) and the bodies
 * of bench, perft, eval and display. It writes no line: it hands back plain data, which the
 * protocol (src/protocol/uci.ts, src/protocol/lines.ts) turns into lines.
 */
import {
  formatMove,
  gameStatus,
  legalMoves,
  pickRules,
  type EditionId,
  type GameStatus,
  type RuleOptions,
} from '../core/index';
import { err, ok } from '../core/result';
import type { SearchInfo, SearchResult } from '../core/score';
import { BENCH_POSITIONS, runBench, type BenchResult, type BenchStep } from '../search/bench';
import { DEFAULT_LIMITS } from '../search/search';
import { skillFromElo } from '../search/skill';
import { ClockLag } from '../search/timeman';
import {
  boardReport,
  evalReport,
  goLimits,
  perftReport,
  type BoardReport,
  type EvalReport,
  type GoNumbers,
  type PerftReport,
} from './commands';
import { DEFAULT_EVAL_FILE, type EngineHost, type LoadedNetwork, type SearchThreads } from './host';
import { createOptions, maxThreads, type EngineOptions } from './options';
import { buildPosition, startPosition, type PositionState } from './position-state';

/** The move to play (`ponder`: the reply expected, '' for none). */
export interface BestMove {
  best: string;
  ponder: string;
}

/** What the engine tells the protocol above it. */
export interface EngineListener {
  /** The engine is busy until `work` settles: commands after this one wait (a failure is an error). */
  wait(work: Promise<unknown>): void;
  /** Something the engine did on its own (the position reset to the start …). */
  note(text: string): void;
  /** A report of the running search. */
  info(info: SearchInfo): void;
  /** The search has stopped (its move may still be held back until stop or ponderhit). */
  searchEnded(r: { error?: string; ms: number; nodes: number; depth: number }): void;
  /** The move to play: the search is over. */
  bestmove(b: BestMove): void;
}

/** A `go` for the side to move, as the protocol read it. */
export interface GoOrder {
  /** The side to move's clock and the other limits. */
  numbers: GoNumbers;
  infinite: boolean;
  /** A ponder search: bestmove waits for ponderhit or stop, and the clock starts at ponderhit. */
  ponder: boolean;
  /** Root moves to consider, in canonical notation (empty = all). */
  searchMoves: string[];
  /** Date.now() the clock starts from. */
  received: number;
}

/** What a `go` did: nothing (the game is over) or a search started. */
export type GoOutcome =
  | { kind: 'over'; status: string }
  | {
      kind: 'started';
      /** A draw the side to move may claim (the search plays on), in words. */
      claimable?: string;
      optimumMs: number;
      maximumMs: number;
      /** The overhead the clock's budget kept back per move: Move Overhead, or the lag seen (ClockLag). */
      overhead: number;
      threads: number;
      hashMb: number;
      /** Date.now() the search started. */
      started: number;
    };

export class Engine {
  readonly options: EngineOptions;
  /** The most `Threads` this machine takes. */
  readonly maxThreads: number;
  private state: PositionState;
  /** The referee's lag beyond the engine's own time, from the clocks of successive `go`s. */
  private readonly clockLag = new ClockLag();
  /**
   * The search threads, started by `startThreads` (at `isready` or the first `go`), not with the
   * engine: the handshake is answered before any thread starts or any warm-up search runs, as
   * Stockfish answers `uci` and does its heavy work at `isready` (protocol.md, `uci`).
   */
  private pool: SearchThreads | undefined;
  /** The network of EvalFile (null: none could be read; the hand-written evaluation is used). */
  private network: LoadedNetwork | null;
  private running = false;
  /** bestmove held back until stop/ponderhit (go infinite, go ponder). */
  private holdBestmove = false;
  private held: BestMove | undefined;
  private closed = false;

  /** `host`: the machine's side (host.ts): src/node/node-host.ts or src/web/page-host.ts. */
  constructor(
    private readonly host: EngineHost,
    private readonly listener: EngineListener,
  ) {
    this.maxThreads = maxThreads(host.cores);
    const shipped = host.loadNetworkFile(DEFAULT_EVAL_FILE);
    this.network = shipped.ok ? shipped.value : null;
    this.options = this.createOptions();
    this.state = startPosition(this.options.variant.value, this.rules());
  }

  /** The search threads have been started (`startThreads`). */
  get threadsStarted(): boolean {
    return this.pool !== undefined;
  }

  /**
   * Starts the search threads with the options as set (Threads, Hash, the evaluation) and warms
   * them up; resolves when they are ready (the protocol holds the commands after this one until
   * then). Once started, the same promise as the threads' `ready`.
   */
  startThreads(): Promise<void> {
    this.pool ??= this.host.startSearchThreads(
      this.options.threads.value,
      this.options.hash.value,
      this.evalNetwork()?.bytes,
    );
    return this.pool.ready;
  }

  /** The search threads, started (the listener waits for them) if they were not. */
  private threads(): SearchThreads {
    if (this.pool === undefined) this.listener.wait(this.startThreads());
    return this.pool as SearchThreads;
  }

  /** The options, each with its effect on the engine. */
  private createOptions(): EngineOptions {
    const wait = (p: Promise<unknown>): void => this.listener.wait(p);
    return createOptions(
      {
        hasNetwork: () => this.network !== null,
        loadNetwork: (file) => {
          const r = this.host.loadNetworkFile(file);
          if (!r.ok) return err(`${r.error}; the network in use is unchanged`);
          this.network = r.value;
          return ok(undefined);
        },
        // Before the threads start, an option only records its value: they start with it.
        evaluationChanged: () => {
          if (this.pool) wait(this.pool.warmWith(this.evalNetwork()?.bytes));
        },
        resizeHash: (mb) => {
          if (this.pool) wait(this.pool.resize(mb));
        },
        clearHash: () => {
          if (this.pool) wait(this.pool.clear());
        },
        setThreads: (n) => {
          if (this.pool) wait(this.pool.setThreads(n));
        },
        variantChanged: (variant, previous) => {
          if (variant !== previous) this.state = startPosition(variant, this.rules());
        },
        rulesChanged: (on, previous) => {
          if (on !== previous) this.replay();
        },
      },
      this.maxThreads,
    );
  }

  /** Replays the position under the rules as set; back to the start when a move no longer exists. */
  private replay(): void {
    const variant = this.options.variant.value;
    const r = buildPosition(this.state.startKfen, this.state.moves, variant, this.rules());
    if (r.ok) {
      this.state = r.value;
    } else {
      this.state = startPosition(variant, this.rules());
      this.listener.note(`position reset to the start: ${r.error.message}`);
    }
  }

  /** The rules as the options set them. */
  rules(): RuleOptions {
    const o = this.options;
    return pickRules({
      pharaohRotation: o.pharaohRotation.value,
      twoScarabRotations: o.twoScarabRotations.value,
      swapOntoReserved: o.swapOntoReserved.value,
      swapSphinx: o.swapSphinx.value,
    });
  }

  get variant(): EditionId {
    return this.options.variant.value;
  }

  get position(): PositionState {
    return this.state;
  }

  setPosition(state: PositionState): void {
    this.state = state;
  }

  /** A search is running, or its move is held back. */
  get searching(): boolean {
    return this.running;
  }

  /** Forgets the table and the history (a new game). */
  newGame(): Promise<void> {
    this.clockLag.newGame();
    return this.pool?.clear() ?? Promise.resolve();
  }

  /** Ends the warm-up searches now (a `go` is waiting: its clock is running). */
  interruptWarmup(): void {
    this.pool?.interruptWarmup();
  }

  /** The network the search uses: EvalFile's when UseNNUE is on, else none. */
  private evalNetwork(): LoadedNetwork | null {
    return this.options.useNNUE.value ? this.network : null;
  }

  /** Starts a search (the listener hears its reports and its move), unless the game is over. */
  go(order: GoOrder): GoOutcome {
    const pos = this.state.pos;
    const noRemovalLimit = this.options.noRemovalDraw.value;
    const status = gameStatus(pos, { noRemovalLimit });
    // Only a hit Pharaoh or no legal move ends the game here: a draw by repetition or by the
    // no-removal limit is the referee's to apply (docs/rules.md, "Game end"); the engine says it
    // may be claimed and plays on, scoring such positions as draws inside its search.
    if (status.result === 'win' || legalMoves(pos).length === 0) return { kind: 'over', status: status.text };
    const claimable = status.result === 'draw' ? status.text.replace(/^Draw(: | by )/, '') : undefined;
    const o = this.options;
    // A clock's lag beyond Move Overhead (ClockLag) is planned with; a ponder search has no cost yet.
    const { time, inc } = order.numbers;
    const clocked = time !== undefined && !order.ponder && !order.infinite;
    if (clocked) this.clockLag.observe(pos.side, time);
    const overhead = clocked ? this.clockLag.overhead(o.moveOverhead.value) : o.moveOverhead.value;
    const { limits, ...budget } = goLimits(order.numbers, order.infinite, order.searchMoves, {
      moveOverhead: overhead,
      multiPV: o.multiPV.value,
      noRemovalLimit,
    });
    const started = Date.now();
    this.running = true;
    this.holdBestmove = order.infinite || order.ponder;
    this.held = undefined;
    const pool = this.threads();
    const done = pool.start(
      {
        edition: o.variant.value,
        ...this.rules(),
        kfen: this.state.startKfen,
        moves: this.state.moves,
        limits,
        features: o.features(),
        params: o.params(),
        network: this.evalNetwork()?.bytes,
        skill: o.limitStrength.value ? skillFromElo(o.elo.value) : o.skillLevel.value,
        random: o.random.value && !o.ponder.value,
        received: order.received,
      },
      order.ponder,
      (info) => this.listener.info(info),
    );
    const fallback = formatMove(legalMoves(pos)[0]);
    const side = pos.side;
    void done.then((d) => {
      this.finish(d, fallback, started);
      if (clocked) this.clockLag.answered(side, time, inc ?? 0, Date.now() - order.received);
    });
    return {
      kind: 'started',
      claimable,
      ...budget,
      overhead,
      threads: pool.threads,
      hashMb: o.hash.value,
      started,
    };
  }

  private finish(d: SearchResult, fallback: string, started: number): void {
    this.listener.searchEnded({ error: d.error, ms: Date.now() - started, nodes: d.nodes, depth: d.depth });
    const b = d.best !== '' ? { best: d.best, ponder: d.ponder } : { best: fallback, ponder: '' };
    if (this.holdBestmove && !this.closed) this.held = b;
    else this.release(b);
  }

  private release(b: BestMove): void {
    this.held = undefined;
    this.running = false;
    this.listener.bestmove(b);
  }

  /** Stops the search; a move held back is given now. */
  stop(): void {
    if (!this.running) return;
    this.holdBestmove = false;
    if (this.held !== undefined) this.release(this.held);
    else this.pool?.stop();
  }

  /** The move pondered on was played: the search goes on as a normal one; a move held back is given now. */
  ponderhit(): void {
    if (!this.running) return;
    this.holdBestmove = false;
    this.pool?.ponderhit();
    if (this.held !== undefined) this.release(this.held);
  }

  /** Ends the search threads (nothing may be searching). */
  quit(): Promise<void> {
    this.closed = true;
    return this.pool?.destroy() ?? Promise.resolve();
  }

  /** `d`. */
  board(): BoardReport {
    return boardReport(this.state.pos, this.options.noRemovalDraw.value);
  }

  /** `eval`. */
  evaluation(): EvalReport {
    return evalReport(this.state.pos, this.network, this.options.useNNUE.value);
  }

  /** `perft <depth>`. */
  perft(depth: number): PerftReport {
    return perftReport(this.state.pos, depth);
  }

  /** The game's state (over, drawn …) under the draw rules as set. */
  status(): GameStatus {
    return gameStatus(this.state.pos, { noRemovalLimit: this.options.noRemovalDraw.value });
  }

  /**
   * `bench [depth [threads]]`: the built-in positions to `depth`. On one thread at once (its node
   * count is the signature); on more, a pool of `threads` (Lazy SMP) measures throughput, its node
   * count varying from run to run.
   */
  bench(depth: number, threads: number, onStep: (s: BenchStep) => void): BenchResult | Promise<BenchResult> {
    const o = this.options;
    if (threads === 1)
      return runBench(depth, onStep, BENCH_POSITIONS, o.features(), this.evalNetwork()?.net ?? null, o.params());
    return this.benchThreads(depth, threads, onStep);
  }

  private async benchThreads(depth: number, threads: number, onStep: (s: BenchStep) => void): Promise<BenchResult> {
    const pool = this.host.startSearchThreads(threads, 16);
    let nodes = 0;
    const t0 = performance.now();
    try {
      for (let i = 0; i < BENCH_POSITIONS.length; i++) {
        const { edition, kfen } = BENCH_POSITIONS[i];
        await pool.clear();
        const d = await pool.start(
          {
            edition,
            pharaohRotation: false,
            kfen,
            moves: [],
            received: Date.now(),
            limits: { ...DEFAULT_LIMITS, depth, searchMoves: [] },
            features: this.options.features(),
            network: this.evalNetwork()?.bytes,
          },
          false,
          () => {},
        );
        if (d.error) throw new Error(d.error);
        nodes += d.nodes;
        onStep({ n: i + 1, count: BENCH_POSITIONS.length, edition, nodes: d.nodes, best: d.best });
      }
    } finally {
      await pool.destroy();
    }
    const ms = Math.max(1, Math.round(performance.now() - t0));
    return { ms, nodes, nps: Math.round((nodes * 1000) / ms) };
  }
}
