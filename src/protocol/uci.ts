/**
 * The UCI-like protocol (see protocol.md). The main thread reads commands and writes lines;
 * searches run in the search thread, so `stop` and `isready` are answered at once.
 */
import { formatMove, gameStatus, legalMoves } from '../core/index';
import { BENCH_DEPTH, BENCH_POSITIONS } from '../search/bench';
import { ok, err } from '../core/result';
import { DEFAULT_LIMITS } from '../search/search';
import { skillFromElo } from '../search/skill';
import { ClockLag } from '../search/timeman';
import {
  benchOneThread,
  benchSummary,
  displayLines,
  evalLines,
  goLimits,
  perftLines,
  queryAnswer,
} from '../engine/commands';
import { AUTHOR, VERSION } from '../version';
import { MAX_PERFT_DEPTH, formatGoError, parseGo } from './go';
import { formatInfo } from '../core/info';
import type { SearchResult } from '../core/score';
import { DEFAULT_EVAL_FILE, type EngineHost, type LoadedNetwork, type SearchThreads } from './engine-host';
import { createOptions, maxThreads, formatOptionError, optionLine, type EngineOptions } from './options';
import {
  buildPosition,
  formatPositionError,
  parsePosition,
  startPosition,
  type PositionState,
} from './position-command';
import { clipMessage, quote } from '../core/quote';

/**
 * When a command runs: `now` at once, even during a search; `ready` at once during a search, but
 * after other work that is still going on (the warm-up, a table clear …); `queued` after the
 * search and the work before it, in order. (`quit` is queued, and also stops a running search.)
 */
type Timing = 'now' | 'ready' | 'queued';

/** A command waiting its turn. */
interface Queued {
  line: string;
  /** Date.now() when it arrived (a `go`'s clock starts then); undefined: when it runs. */
  received?: number;
  /** A `stop` came while this `go` waited: it answers at once. */
  stopped?: boolean;
  /** Date.now() of a `ponderhit` that came while this `go ponder` waited: it is a normal search from then. */
  ponderhit?: number;
}

/**
 * A command of the protocol, declared once (as the options are): its names, when it runs, its
 * lines in `help` and what it does.
 */
interface Command {
  names: readonly string[];
  timing: Timing;
  /** Its lines in `help`, in the table's order (none for one described with another). */
  help: readonly string[];
  run(e: UciEngine, args: string[], q: Queued, name: string): void;
}

export class UciEngine {
  /** The commands, in the order of `help`. */
  private static readonly COMMANDS: readonly Command[] = [
    {
      names: ['uci', 'ugi', 'uki'],
      timing: 'ready',
      help: ['uci | ugi | uki            handshake: id, options, uciok/ugiok/ukiok'],
      run: (e, _args, _q, name) => e.handshake(name),
    },
    {
      names: ['isready'],
      timing: 'ready',
      help: ['isready                    readyok (also during a search)'],
      run: (e) => e.write('readyok'),
    },
    {
      names: ['setoption'],
      timing: 'queued',
      help: ['setoption name <id> [value <x>]'],
      run: (e, args) => e.setoption(args),
    },
    {
      names: ['ucinewgame', 'uginewgame', 'ukinewgame'],
      timing: 'queued',
      help: ['ucinewgame                 forget the hash and history'],
      run: (e) => {
        e.clockLag.newGame();
        e.waitFor(e.pool.clear());
      },
    },
    {
      names: ['position'],
      timing: 'queued',
      help: ['position startpos | setup <classic|imhotep|dynasty|mercury|sophie> | kfen <KFEN> [moves m1 m2 ...]'],
      run: (e, args) => e.position(args),
    },
    {
      names: ['go'],
      timing: 'queued',
      help: [
        'go [wtime W btime B winc I binc I movestogo M | movetime T | depth D | nodes N | mate M | infinite | ponder] [searchmoves m ...]',
        'go perft <depth>           perft per root move',
      ],
      run: (e, args, q) => e.go(args, q),
    },
    {
      names: ['stop'],
      timing: 'now',
      help: ['stop | ponderhit | quit'],
      run: (e) => {
        for (const w of e.waitingGos()) w.stopped = true;
        e.stop();
      },
    },
    {
      names: ['ponderhit'],
      timing: 'now',
      help: [],
      run: (e) => {
        for (const w of e.waitingGos()) w.ponderhit ??= Date.now();
        e.ponderhit();
      },
    },
    { names: ['quit'], timing: 'queued', help: [], run: (e) => e.quit() },
    {
      names: ['debug'],
      timing: 'now',
      help: ['debug on|off               extra info string diagnostics'],
      run: (e, args) => e.debugCommand(args),
    },
    {
      names: ['d'],
      timing: 'queued',
      help: ['d                          show the board, KFEN and key'],
      run: (e) => e.display(),
    },
    {
      names: ['eval'],
      timing: 'queued',
      help: ['eval                       the evaluation, term by term'],
      run: (e) => e.evalCommand(),
    },
    {
      names: ['bench'],
      timing: 'queued',
      help: [`bench [depth]              search the built-in positions to depth (default ${BENCH_DEPTH})`],
      run: (e, args) => e.bench(args),
    },
    {
      names: ['query'],
      timing: 'queued',
      help: ['query gameover|p1turn|result'],
      run: (e, args) => e.query(args),
    },
    { names: ['help'], timing: 'now', help: [], run: (e) => e.help() },
    { names: ['perft'], timing: 'queued', help: [], run: (e, args) => e.perft(args) },
  ];

  /** The command of each name. */
  private static readonly BY_NAME: ReadonlyMap<string, Command> = new Map(
    UciEngine.COMMANDS.flatMap((c) => c.names.map((n) => [n, c] as const)),
  );

  /** The command named `word`, if the protocol has one. */
  static command(word: string): Command | undefined {
    return UciEngine.BY_NAME.get(word);
  }

  /** Every command name, in the table's order. */
  static commandNames(): string[] {
    return UciEngine.COMMANDS.flatMap((c) => c.names);
  }

  private readonly options: EngineOptions;
  private state: PositionState;
  private pool: SearchThreads;
  /** The referee's lag beyond the engine's own time, from the clocks of successive `go`s. */
  private readonly clockLag = new ClockLag();
  /** The most `Threads` this machine takes. */
  private readonly maxThreads: number;
  private queue: Queued[] = [];
  private searching = false;
  /** A command other than a search is still working (clearing the table, resizing the pool). */
  private blocked = false;
  /** bestmove held back until stop/ponderhit (go infinite, go ponder). */
  private holdBestmove = false;
  private heldBestmove: string | undefined;
  private quitting = false;
  /** `quit` or end of input arrived: searches stop at once, queued commands still run. */
  private quitRequested = false;
  /** `debug on`: extra `info string debug: …` lines. */
  private debugMode = false;
  private onQuit: () => void = () => {};
  private onError: (msg: string) => void = () => {};
  /** The network of EvalFile (null: none could be read; the hand-written evaluation is used). */
  private network: LoadedNetwork | null;

  /** `host`: the machine's side (engine-host.ts): src/node/node-host.ts or src/web/page-host.ts. */
  constructor(
    private readonly write: (line: string) => void,
    private readonly host: EngineHost,
  ) {
    this.maxThreads = maxThreads(host.cores);
    const shipped = host.loadNetworkFile(DEFAULT_EVAL_FILE);
    this.network = shipped.ok ? shipped.value : null;
    this.options = createOptions(
      {
        hasNetwork: () => this.network !== null,
        loadNetwork: (file) => {
          const r = host.loadNetworkFile(file);
          if (!r.ok) return err(`${r.error}; the network in use is unchanged`);
          this.network = r.value;
          return ok(undefined);
        },
        evaluationChanged: () => this.waitFor(this.pool.warmWith(this.evalNetwork()?.bytes)),
        resizeHash: (mb) => this.waitFor(this.pool.resize(mb)),
        clearHash: () => this.waitFor(this.pool.clear()),
        setThreads: (n) => this.waitFor(this.pool.setThreads(n)),
        variantChanged: (variant, previous) => {
          if (variant !== previous) this.state = startPosition(variant, this.rules());
        },
        pharaohRotationChanged: (on, previous) => {
          if (on === previous) return;
          // Replay the position under the new rules; fall back to the start when a move no longer exists.
          const replay = buildPosition(
            this.state.startKfen,
            this.state.moves,
            this.options.variant.value,
            this.rules(),
          );
          if (replay.ok) {
            this.state = replay.value;
          } else {
            this.state = startPosition(this.options.variant.value, this.rules());
            this.write(`info string position reset to the start: ${replay.error.message}`);
          }
        },
      },
      this.maxThreads,
    );
    this.state = startPosition(this.options.variant.value, this.rules());
    this.pool = host.startSearchThreads(this.options.threads.value, this.options.hash.value, this.evalNetwork()?.bytes);
    this.waitFor(this.pool.ready);
  }

  /** Called when `quit` (or end of input) has been handled and output is complete. */
  setQuitHandler(f: () => void): void {
    this.onQuit = f;
  }

  private rules(): { pharaohRotation: boolean } {
    return { pharaohRotation: this.options.pharaohRotation.value };
  }

  /** An error line; no part of the input in it longer than QUOTE_MAX characters (quote.ts). */
  private error(message: string): void {
    const msg = clipMessage(message);
    this.write(`info string error: ${msg}`);
    this.onError(msg);
  }

  /** Called with each error's message after its `info string error` line (commands given as arguments). */
  setErrorHandler(f: (msg: string) => void): void {
    this.onError = f;
  }

  private debug(msg: string): void {
    if (this.debugMode) this.write(`info string debug: ${msg}`);
  }

  /** Feeds one input line. */
  input(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const cmd = trimmed.split(/\s+/)[0];
    if (this.quitting) return;
    // readyok at once during a search (UCI); after other unfinished work (the warm-up at start,
    // clearing the table …), when it is done. The handshake too: after uciok the engine is warm.
    const command = UciEngine.command(cmd);
    if (command?.timing === 'ready' && !this.searching && (this.queue.length > 0 || this.blocked)) {
      this.queue.push({ line: trimmed });
      return;
    }
    if (cmd === 'quit') {
      this.requestQuit();
      return;
    }
    // An unknown command changes nothing: its error need not wait for a search to end.
    if (command === undefined || command.timing !== 'queued') {
      this.execute({ line: trimmed });
      return;
    }
    // The clock of a go runs from now: a warm-up search must not take its time.
    if (cmd === 'go') this.pool.interruptWarmup();
    if (this.searching || this.blocked)
      this.debug(`${quote(cmd)} waits until the ${this.searching ? 'search' : 'work before it'} has ended`);
    this.queue.push({ line: trimmed, received: Date.now() });
    this.pump();
  }

  /**
   * `quit`: a running search stops at once (its bestmove is still printed); the commands that
   * arrived before still run, in order; then the engine exits.
   */
  private requestQuit(): void {
    if (this.quitRequested || this.quitting) return;
    this.quitRequested = true;
    this.pool.interruptWarmup();
    if (this.searching) this.stop();
    this.queue.push({ line: 'quit' });
    this.pump();
  }

  /**
   * Feeds a command that waits for everything before it (command-line arguments: a `go` there
   * runs to its end before the next argument, and the final `quit` waits for it). A `go`'s clock
   * starts when it runs.
   */
  inputInOrder(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || this.quitting) return;
    this.queue.push({ line: trimmed });
    this.pump();
  }

  /** End of input means quit. */
  endOfInput(): void {
    this.requestQuit();
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.searching && !this.blocked && !this.quitting) {
      this.execute(this.queue.shift()!);
    }
    // A search has started: isready and the handshake are answered at once during a search,
    // also when they were waiting for it to start.
    const ready = (q: Queued): boolean => UciEngine.command(q.line.split(/\s+/)[0])?.timing === 'ready';
    if (this.searching && this.queue.some(ready)) {
      const now = this.queue.filter(ready);
      this.queue = this.queue.filter((q) => !now.includes(q));
      for (const q of now) this.execute(q);
    }
  }

  private execute(q: Queued): void {
    const tokens = q.line.split(/\s+/);
    const cmd = tokens[0];
    const args = tokens.slice(1);
    try {
      const command = UciEngine.command(cmd);
      if (command === undefined) this.error(`unknown command ${quote(cmd)} (try 'help')`);
      else command.run(this, args, q, cmd);
    } catch (e) {
      this.error(`internal error in ${quote(cmd)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Holds the queue until an asynchronous command has finished. */
  private waitFor(p: Promise<unknown>): void {
    this.blocked = true;
    p.catch((e: unknown) => {
      if (!this.quitting) this.error(e instanceof Error ? e.message : String(e));
    }).finally(() => {
      this.blocked = false;
      this.pump();
    });
  }

  private handshake(cmd: string): void {
    this.write(`id name Thoth ${VERSION}`);
    this.write(`id author ${AUTHOR}`);
    for (const o of this.options.all) this.write(optionLine(o.spec));
    this.write(`${cmd}ok`);
  }

  /** `debug on|off` (UCI). */
  private debugCommand(args: string[]): void {
    if (args.length !== 1 || (args[0] !== 'on' && args[0] !== 'off')) {
      return this.error(`debug: expected 'debug on' or 'debug off', not ${quote(`debug ${args.join(' ')}`)}`);
    }
    this.debugMode = args[0] === 'on';
  }

  private setoption(args: string[]): void {
    // setoption name <id...> [value <x...>]
    if (args[0] !== 'name') return this.error("setoption: expected 'setoption name <id> [value <x>]'");
    const vi = args.indexOf('value');
    const name = (vi >= 0 ? args.slice(1, vi) : args.slice(1)).join(' ');
    const value = vi >= 0 ? args.slice(vi + 1).join(' ') : undefined;
    const option = this.options.find(name);
    if (!option) return this.error(`setoption: unknown option ${quote(name)}`);
    const r = option.set(value);
    if (!r.ok) this.error(`setoption: ${formatOptionError(r.error)}`);
  }

  private position(args: string[]): void {
    const r = parsePosition(args, this.options.variant.value, this.rules());
    if (!r.ok) return this.error(formatPositionError(r.error));
    this.state = r.value;
  }

  private go(args: string[], q: Queued): void {
    const pos = this.state.pos;
    const parsed = parseGo(args, pos);
    if (!parsed.ok) return this.error(formatGoError(parsed.error));
    const { numbers: num, infinite, searchMoves, perft } = parsed.value;
    if (perft !== undefined) return this.perft([String(perft)]);
    // The clock starts when the go arrived, or at a ponderhit that came while it waited; a
    // ponder search's clock starts at its ponderhit (the search sees it).
    const ponder = parsed.value.ponder && q.ponderhit === undefined;
    const received = ponder ? Date.now() : (q.ponderhit ?? q.received ?? Date.now());

    const noRemovalDraw = this.options.noRemovalDraw.value;
    const status = gameStatus(pos, { noRemovalLimit: noRemovalDraw });
    // Only a hit Pharaoh or no legal move ends the game here: a draw by repetition or by the
    // no-removal limit is the referee's to apply (docs/rules.md, "Game end"); the engine says it
    // may be claimed and plays on, scoring such positions as draws inside its search.
    if (status.result === 'win' || legalMoves(pos).length === 0) {
      this.write(`info string game over: ${status.text}`);
      this.write('bestmove (none)');
      return;
    }
    if (status.result === 'draw')
      this.write(`info string draw claimable: ${status.text.replace(/^Draw(: | by )/, '')}`);
    const us = pos.side;
    let time = num[us === 0 ? 'wtime' : 'btime'] ?? num[us === 0 ? 'p1time' : 'p2time'];
    // A clock for the other side only (as fastchess's compliance check sends): no time for us.
    if (time === undefined && (['wtime', 'btime', 'p1time', 'p2time'] as const).some((k) => num[k] !== undefined))
      time = 0;
    const inc = num[us === 0 ? 'winc' : 'binc'] ?? num[us === 0 ? 'p1inc' : 'p2inc'];
    // A clock's lag beyond Move Overhead (ClockLag) is planned with; a ponder search has no cost yet.
    const clocked = time !== undefined && !ponder && !infinite;
    if (clocked) this.clockLag.observe(us, time!);
    const overhead = clocked
      ? this.clockLag.overhead(this.options.moveOverhead.value)
      : this.options.moveOverhead.value;
    const { limits, ...budget } = goLimits({ ...num, time, inc }, infinite, searchMoves, {
      moveOverhead: overhead,
      multiPV: this.options.multiPV.value,
      noRemovalLimit: noRemovalDraw,
    });
    const started = Date.now();
    this.debug(
      `go: ${args.join(' ') || '(no limits)'}: optimum ${budget.optimumMs} ms, maximum ${budget.maximumMs} ms (0 = none), overhead ${overhead} ms, ` +
        `${this.pool.threads} thread(s), hash ${this.options.hash.value} MB, started ${started - received} ms after it arrived`,
    );
    this.searching = true;
    this.holdBestmove = infinite || ponder;
    this.heldBestmove = undefined;
    const done = this.pool.start(
      {
        edition: this.options.variant.value,
        pharaohRotation: this.options.pharaohRotation.value,
        kfen: this.state.startKfen,
        moves: this.state.moves,
        limits,
        features: this.options.features(),
        params: this.options.params(),
        network: this.evalNetwork()?.bytes,
        skill: this.options.limitStrength.value ? skillFromElo(this.options.elo.value) : this.options.skillLevel.value,
        random: this.options.random.value && !this.options.ponder.value,
        received,
      },
      ponder,
      (info) => this.write(formatInfo(info)),
    );
    const fallback = formatMove(legalMoves(pos)[0]);
    void done.then((d) => {
      this.finish(d, fallback, started);
      if (clocked) this.clockLag.answered(us, time!, inc ?? 0, Date.now() - received);
    });
    if (this.quitRequested || q.stopped) this.stop(); // stopped while it waited: answer at once
  }

  private finish(d: SearchResult, fallback: string, started: number): void {
    if (d.error) this.error(d.error);
    this.debug(`search done: ${Date.now() - started} ms, ${d.nodes} nodes, depth ${d.depth}`);
    const best = d.best !== '' ? d.best : fallback;
    const line = `bestmove ${best}${d.ponder !== '' && d.best !== '' ? ` ponder ${d.ponder}` : ''}`;
    if (this.holdBestmove && !this.quitting) {
      this.heldBestmove = line;
      return;
    }
    this.write(line);
    this.searching = false;
    this.pump();
  }

  /** The `go` commands still waiting their turn (behind a search, the warm-up, a table clear …). */
  private waitingGos(): Queued[] {
    return this.queue.filter((w) => w.line.split(/\s+/)[0] === 'go');
  }

  private stop(): void {
    if (!this.searching) return;
    this.holdBestmove = false;
    if (this.heldBestmove !== undefined) {
      const line = this.heldBestmove;
      this.heldBestmove = undefined;
      this.write(line);
      this.searching = false;
      this.pump();
      return;
    }
    this.pool.stop();
  }

  private ponderhit(): void {
    if (!this.searching) return;
    this.holdBestmove = false;
    this.pool.ponderhit();
    if (this.heldBestmove !== undefined) {
      const line = this.heldBestmove;
      this.heldBestmove = undefined;
      this.write(line);
      this.searching = false;
      this.pump();
    }
  }

  /** Runs from the queue, so nothing is searching or pending any more. */
  private quit(): void {
    this.quitting = true;
    this.queue = [];
    void this.pool.destroy().finally(() => this.onQuit());
  }

  private display(): void {
    for (const l of displayLines(this.state.pos, this.options.noRemovalDraw.value)) this.write(l);
  }

  /** The network the search uses: EvalFile's when UseNNUE is on, else none. */
  private evalNetwork(): LoadedNetwork | null {
    return this.options.useNNUE.value ? this.network : null;
  }

  private evalCommand(): void {
    for (const l of evalLines(this.state.pos, this.network, this.options.useNNUE.value)) this.write(l);
  }

  private bench(args: string[]): void {
    let depth = BENCH_DEPTH;
    let threads = 1;
    if (args.length > 2) return this.error(`bench: unexpected ${quote(args[2])} (bench [depth [threads]])`);
    if (args[0] !== undefined) {
      if (!/^\d+$/.test(args[0]) || Number(args[0]) < 1 || Number(args[0]) > 30) {
        return this.error(`bench: depth must be a whole number from 1 to 30, not ${quote(args[0])}`);
      }
      depth = Number(args[0]);
    }
    if (args[1] !== undefined) {
      if (!/^\d+$/.test(args[1]) || Number(args[1]) < 1 || Number(args[1]) > this.maxThreads) {
        return this.error(`bench: threads must be a whole number from 1 to ${this.maxThreads}, not ${quote(args[1])}`);
      }
      threads = Number(args[1]);
    }
    if (threads === 1) {
      benchOneThread(
        depth,
        (line) => this.write(line),
        this.options.features(),
        this.evalNetwork()?.net ?? null,
        this.options.params(),
      );
      return;
    }
    // Parallel bench: the same positions searched by a pool of `threads` (Lazy SMP); measures
    // throughput. Its node count varies from run to run, unlike the one-thread signature.
    const run = async (): Promise<void> => {
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
          this.write(
            `info string bench ${i + 1}/${BENCH_POSITIONS.length} ${edition} nodes ${d.nodes} bestmove ${d.best}`,
          );
        }
      } finally {
        await pool.destroy();
      }
      const ms = Math.max(1, Math.round(performance.now() - t0));
      for (const l of benchSummary({ ms, nodes, nps: Math.round((nodes * 1000) / ms) })) this.write(l);
    };
    this.waitFor(run());
  }

  private perft(args: string[]): void {
    const v = args[0];
    if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_PERFT_DEPTH) {
      return this.error(`perft: depth must be a whole number from 1 to ${MAX_PERFT_DEPTH}, not ${quote(v ?? '')}`);
    }
    if (args.length > 1) return this.error(`perft: unexpected ${quote(args[1])} (perft <depth>)`);
    for (const l of perftLines(this.state.pos, Number(v))) this.write(l);
  }

  private query(args: string[]): void {
    const answer = queryAnswer(this.state.pos, args[0], this.options.noRemovalDraw.value);
    if (answer === undefined) this.error(`query: expected gameover, p1turn or result, not ${quote(args[0] ?? '')}`);
    else this.write(`response ${answer}`);
  }

  private help(): void {
    const lines = [
      'Thoth speaks a UCI-like protocol (see protocol.md). Commands:',
      ...UciEngine.COMMANDS.flatMap((c) => c.help.map((l) => `  ${l}`)),
    ];
    for (const l of lines) this.write(`info string ${l}`);
  }
}

export function isKnownCommand(word: string): boolean {
  return UciEngine.command(word) !== undefined;
}

/** The protocol's command words (for the command line's "did you mean"). */
export const KNOWN_COMMANDS: readonly string[] = UciEngine.commandNames();
