/**
 * The UCI-like protocol (see protocol.md): the command table and the queue. Each command's
 * arguments are read here, bad input answered with `info string error: …`; the engine beneath
 * (src/engine/engine.ts) does the work and hands back data, made into lines here and in lines.ts.
 * Searches run in the search threads, so `stop` and `isready` are answered at once.
 */
import { BENCH_DEPTH, type BenchResult } from '../search/bench';
import { formatInfo } from '../core/info';
import { wdlOf } from '../core/win-chance';
import { clipMessage, quote } from '../core/quote';
import { Engine, type EngineListener } from '../engine/engine';
import type { EngineHost } from '../engine/host';
import { formatOptionError, optionLine } from '../engine/options';
import { AUTHOR, VERSION } from '../version';
import { parseBench, parseDebug, parsePerft, parseSetoption } from './arguments';
import { formatGoError, parseGo, sideNumbers } from './go';
import * as text from './lines';
import { formatPositionError, parsePosition } from './position-command';

/**
 * When a command runs: `now` at once, even during a search; `handshake` at once, even during the
 * threads' start and warm-up or other work, unless commands that came before it still wait (then in
 * its turn); `ready` at once during a search, but after other work that is still going on (the
 * threads' start and warm-up, a table clear …); `queued` after the search and the work before it,
 * in order. (`quit` is queued, and also stops a running search.)
 */
type Timing = 'now' | 'handshake' | 'ready' | 'queued';

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
  /** The commands, in the order of `help` (a table: one command, its help lines and what it runs, a row). */
  // biome-ignore format: a table, a command a row
  private static readonly COMMANDS: readonly Command[] = [
    { names: ['uci', 'ugi', 'uki'], timing: 'handshake', run: (e, _args, _q, name) => e.handshake(name),
      help: ['uci | ugi | uki            handshake: id, options, uciok/ugiok/ukiok'] },
    { names: ['isready'], timing: 'ready', run: (e) => e.write('readyok'),
      help: ['isready                    readyok (also during a search)'] },
    { names: ['setoption'], timing: 'queued', run: (e, args) => e.setoption(args),
      help: ['setoption name <id> [value <x>]'] },
    { names: ['ucinewgame', 'uginewgame', 'ukinewgame'], timing: 'queued', run: (e) => e.waitFor(e.engine.newGame()),
      help: ['ucinewgame                 forget the hash and history'] },
    { names: ['position'], timing: 'queued', run: (e, args) => e.position(args),
      help: ['position startpos | setup <classic|imhotep|dynasty|mercury|sophie> | kfen <KFEN> [moves m1 m2 ...]'] },
    { names: ['go'], timing: 'queued', run: (e, args, q) => e.go(args, q),
      help: [
        'go [wtime W btime B winc I binc I movestogo M | movetime T | depth D | nodes N | mate M | infinite | ponder] [searchmoves m ...]',
        'go perft <depth>           perft per root move',
      ] },
    { names: ['stop'], timing: 'now', run: (e) => e.stop(),
      help: ['stop | ponderhit | quit'] },
    { names: ['ponderhit'], timing: 'now', run: (e) => e.ponderhit(), help: [] },
    { names: ['quit'], timing: 'queued', run: (e) => e.quit(), help: [] },
    { names: ['debug'], timing: 'now', run: (e, args) => e.debugCommand(args),
      help: ['debug on|off               extra info string diagnostics'] },
    { names: ['d'], timing: 'queued', run: (e) => e.lines(text.boardLines(e.engine.board())),
      help: ['d                          show the board, KFEN and key'] },
    { names: ['eval'], timing: 'queued', run: (e) => e.lines(text.evalLines(e.engine.evaluation())),
      help: ['eval                       the evaluation, term by term'] },
    { names: ['bench'], timing: 'queued', run: (e, args) => e.bench(args),
      help: [`bench [depth]              search the built-in positions to depth (default ${BENCH_DEPTH})`] },
    { names: ['query'], timing: 'queued', run: (e, args) => e.query(args),
      help: ['query gameover|p1turn|result'] },
    { names: ['help'], timing: 'now', run: (e) => e.help(), help: [] },
    { names: ['perft'], timing: 'queued', run: (e, args) => e.perft(args), help: [] },
  ];

  /** The command of each name, in the table's order. */
  static readonly BY_NAME: ReadonlyMap<string, Command> = new Map(
    UciEngine.COMMANDS.flatMap((c) => c.names.map((n) => [n, c] as const)),
  );

  private readonly engine: Engine;
  private queue: Queued[] = [];
  /** A command other than a search is still working (clearing the table, resizing the pool). */
  private blocked = false;
  private quitting = false;
  /** `quit` or end of input arrived: searches stop at once, queued commands still run. */
  private quitRequested = false;
  /** `debug on`: extra `info string debug: …` lines. */
  private debugMode = false;
  private onQuit: () => void = () => {};
  private onError: (msg: string) => void = () => {};

  /** `host`: the machine's side (src/engine/host.ts): src/node/node-host.ts or src/web/page-host.ts. */
  constructor(
    private readonly write: (line: string) => void,
    host: EngineHost,
  ) {
    const listener: EngineListener = {
      wait: (work) => this.waitFor(work),
      note: (words) => this.write(`info string ${words}`),
      info: (info) =>
        this.write(
          formatInfo(
            info.score !== undefined && this.engine.options.showWdl.value ? { ...info, wdl: wdlOf(info.score) } : info,
          ),
        ),
      searchEnded: (r) => {
        if (r.error) this.error(r.error);
        this.debug(`search done: ${r.ms} ms, ${r.nodes} nodes, depth ${r.depth}`);
      },
      bestmove: (b) => {
        this.write(text.bestmoveLine(b));
        this.pump();
      },
    };
    this.engine = new Engine(host, listener);
  }

  /** Called when `quit` (or end of input) has been handled and output is complete. */
  setQuitHandler(f: () => void): void {
    this.onQuit = f;
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
    if (trimmed === '' || trimmed.startsWith('#') || this.quitting) return;
    const cmd = trimmed.split(/\s+/)[0];
    // The search threads start at the first isready or search (here when nothing is before it).
    if (needsThreads(trimmed) && this.queue.length === 0 && !this.blocked) this.startThreads();
    // readyok at once during a search (UCI); after other unfinished work (the threads' start and
    // warm-up, clearing the table …), when it is done. The handshake does not wait for that work
    // (uciok at once, as Stockfish), only for commands before it.
    const command = UciEngine.BY_NAME.get(cmd);
    const waits =
      (command?.timing === 'ready' && (this.queue.length > 0 || this.blocked)) ||
      (command?.timing === 'handshake' && this.queue.length > 0);
    if (waits && !this.engine.searching) {
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
    if (cmd === 'go') this.engine.interruptWarmup();
    if (this.engine.searching || this.blocked)
      this.debug(`${quote(cmd)} waits until the ${this.engine.searching ? 'search' : 'work before it'} has ended`);
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
    this.engine.interruptWarmup();
    if (this.engine.searching) this.engine.stop();
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
    while (this.queue.length > 0 && !this.engine.searching && !this.blocked && !this.quitting) {
      // a command that needs the search threads waits until they have started and warmed up (a
      // go whose clock runs, from stdin, cuts the warm-up short)
      const head = this.queue[0];
      if (needsThreads(head.line) && !this.engine.threadsStarted) {
        this.startThreads();
        if (head.received !== undefined) this.engine.interruptWarmup();
      } else this.execute(this.queue.shift()!);
    }
    // A search has started: isready and the handshake are answered at once during a search,
    // also when they were waiting for it to start.
    const ready = (q: Queued): boolean => {
      const t = UciEngine.BY_NAME.get(q.line.split(/\s+/)[0])?.timing;
      return t === 'ready' || t === 'handshake';
    };
    if (this.engine.searching && this.queue.some(ready)) {
      const now = this.queue.filter(ready);
      this.queue = this.queue.filter((q) => !now.includes(q));
      for (const q of now) this.execute(q);
    }
  }

  private execute(q: Queued): void {
    const [cmd, ...args] = q.line.split(/\s+/);
    try {
      const command = UciEngine.BY_NAME.get(cmd);
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

  /**
   * Starts the search threads (at the first `isready` or search): the commands after this one
   * wait until they are started and warmed up. `debug on` says when they start and are ready.
   */
  private startThreads(): void {
    if (this.engine.threadsStarted) return;
    const t0 = Date.now();
    const o = this.engine.options;
    this.debug(`search threads starting: ${o.threads.value} thread(s), hash ${o.hash.value} MB, then a warm-up search`);
    this.waitFor(this.engine.startThreads().then(() => this.debug(`search threads ready after ${Date.now() - t0} ms`)));
  }

  private handshake(cmd: string): void {
    this.write(`id name Thoth ${VERSION}`);
    this.write(`id author ${AUTHOR}`);
    for (const o of this.engine.options.all) this.write(optionLine(o.spec));
    this.write(`${cmd}ok`);
  }

  /** `debug on|off` (UCI). */
  private debugCommand(args: string[]): void {
    const r = parseDebug(args);
    if (!r.ok) return this.error(r.error);
    this.debugMode = r.value;
  }

  private setoption(args: string[]): void {
    const r = parseSetoption(args);
    if (!r.ok) return this.error(r.error);
    const option = this.engine.options.find(r.value.name);
    if (!option) return this.error(`setoption: unknown option ${quote(r.value.name)}`);
    const set = option.set(r.value.value);
    if (!set.ok) this.error(`setoption: ${formatOptionError(set.error)}`);
  }

  private position(args: string[]): void {
    const r = parsePosition(args, this.engine.variant, this.engine.rules());
    if (!r.ok) return this.error(formatPositionError(r.error));
    this.engine.setPosition(r.value);
  }

  private go(args: string[], q: Queued): void {
    const pos = this.engine.position.pos;
    const parsed = parseGo(args, pos);
    if (!parsed.ok) return this.error(formatGoError(parsed.error));
    const { numbers, infinite, searchMoves, perft } = parsed.value;
    if (perft !== undefined) return this.perft([String(perft)]);
    // The clock starts when the go arrived, or at a ponderhit that came while it waited; a
    // ponder search's clock starts at its ponderhit (the search sees it).
    const ponder = parsed.value.ponder && q.ponderhit === undefined;
    const received = ponder ? Date.now() : (q.ponderhit ?? q.received ?? Date.now());
    const r = this.engine.go({ numbers: sideNumbers(numbers, pos.side), infinite, ponder, searchMoves, received });
    if (r.kind === 'over') return this.lines([`info string game over: ${r.status}`, 'bestmove (none)']);
    if (r.claimable !== undefined) this.write(`info string draw claimable: ${r.claimable}`);
    this.debug(text.goDebugText(args, r, received));
    if (this.quitRequested || q.stopped) this.engine.stop(); // stopped while it waited: answer at once
  }

  /** `stop`: a `go` still waiting its turn answers at once; the search stops. */
  private stop(): void {
    for (const w of this.waitingGos()) w.stopped = true;
    this.engine.stop();
  }

  /** `ponderhit`: a `go ponder` still waiting its turn is a normal search from now. */
  private ponderhit(): void {
    for (const w of this.waitingGos()) w.ponderhit ??= Date.now();
    this.engine.ponderhit();
  }

  /** The `go` commands still waiting their turn (behind a search, the warm-up, a table clear …). */
  private waitingGos(): Queued[] {
    return this.queue.filter((w) => w.line.split(/\s+/)[0] === 'go');
  }

  /** Runs from the queue, so nothing is searching or pending any more. */
  private quit(): void {
    this.quitting = true;
    this.queue = [];
    void this.engine.quit().finally(() => this.onQuit());
  }

  private bench(args: string[]): void {
    const a = parseBench(args, this.engine.maxThreads);
    if (!a.ok) return this.error(a.error);
    const r = this.engine.bench(a.value.depth, a.value.threads, (s) => this.write(text.benchStepLine(s)));
    const summary = (b: BenchResult): void => this.lines(text.benchSummary(b));
    if (r instanceof Promise) this.waitFor(r.then(summary));
    else summary(r);
  }

  private perft(args: string[]): void {
    const depth = parsePerft(args);
    if (!depth.ok) return this.error(depth.error);
    this.lines(text.perftLines(this.engine.perft(depth.value)));
  }

  private query(args: string[]): void {
    const answer = text.queryAnswer(this.engine.status(), this.engine.position.pos.side, args[0]);
    if (answer === undefined) this.error(`query: expected gameover, p1turn or result, not ${quote(args[0] ?? '')}`);
    else this.write(`response ${answer}`);
  }

  private lines(lines: string[]): void {
    for (const l of lines) this.write(l);
  }

  private help(): void {
    const help = UciEngine.COMMANDS.flatMap((c) => c.help.map((l) => `  ${l}`));
    this.lines(
      ['Thoth speaks a UCI-like protocol (see protocol.md). Commands:', ...help].map((l) => `info string ${l}`),
    );
  }
}

/**
 * The search threads start, and warm up, at the first `isready` or search (not with the engine:
 * the handshake is answered at once, before any thread starts or any search runs, as Stockfish
 * does its heavy work at `isready`; protocol.md, `uci`).
 */
function needsThreads(line: string): boolean {
  const words = line.split(/\s+/);
  return words[0] === 'isready' || (words[0] === 'go' && !words.includes('perft'));
}

export function isKnownCommand(word: string): boolean {
  return UciEngine.BY_NAME.has(word);
}

/** The protocol's command words (for the command line's "did you mean"). */
export const KNOWN_COMMANDS: readonly string[] = [...UciEngine.BY_NAME.keys()];
