/**
 * The UCI-like protocol (see protocol.md). The main thread reads commands and writes lines;
 * searches run in the search thread, so `stop` and `isready` are answered at once.
 */
import { divide, formatMove, gameStatus, keyHex, legalMoves, parseMove, pieceText, toKfen } from '../core/index';
import { BENCH_DEPTH, BENCH_POSITIONS, runBench } from '../search/bench';
import { TERM_NAMES, evaluate } from '../search/evaluate';
import { DEFAULT_LIMITS, MAX_PLY, type SearchLimits } from '../search/search';
import { skillFromElo } from '../search/skill';
import { timeBudget } from '../search/timeman';
import { AUTHOR, VERSION } from '../version';
import { formatInfo } from './info';
import { MAX_THREADS, createOptions, formatOptionError, optionLine, type EngineOptions } from './options';
import { buildPosition, formatPositionError, parsePosition, startPosition, type PositionState } from './position';
import { SearchPool, type SearchDone } from './search-pool';

const IMMEDIATE = new Set(['isready', 'stop', 'ponderhit', 'uci', 'ugi', 'uki', 'help']);
const KNOWN = new Set([
  'uci', 'ugi', 'uki', 'isready', 'setoption', 'ucinewgame', 'uginewgame', 'ukinewgame', 'position', 'go', 'stop',
  'ponderhit', 'quit', 'd', 'eval', 'bench', 'query', 'help', 'perft',
]);

export function isKnownCommand(word: string): boolean {
  return KNOWN.has(word);
}

export class UciEngine {
  private readonly options: EngineOptions;
  private state: PositionState;
  private pool: SearchPool;
  private queue: string[] = [];
  private searching = false;
  /** A command other than a search is still working (clearing the table, resizing the pool). */
  private blocked = false;
  /** bestmove held back until stop/ponderhit (go infinite, go ponder). */
  private holdBestmove = false;
  private heldBestmove: string | undefined;
  private quitting = false;
  /** `quit` or end of input arrived: searches stop at once, queued commands still run. */
  private quitRequested = false;
  private onQuit: () => void = () => {};

  constructor(private readonly write: (line: string) => void) {
    this.options = createOptions({
      resizeHash: (mb) => this.pool.resize(mb),
      clearHash: () => this.waitFor(this.pool.clear()),
      setThreads: (n) => this.waitFor(this.pool.setThreads(n)),
      variantChanged: (variant, previous) => {
        if (variant !== previous) this.state = startPosition(variant, this.rules());
      },
      pharaohRotationChanged: (on, previous) => {
        if (on === previous) return;
        // Replay the position under the new rules; fall back to the start when a move no longer exists.
        const replay = buildPosition(this.state.startKfen, this.state.moves, this.options.variant.value, this.rules());
        if (replay.ok) {
          this.state = replay.value;
        } else {
          this.state = startPosition(this.options.variant.value, this.rules());
          this.write(`info string position reset to the start: ${replay.error.message}`);
        }
      },
    });
    this.state = startPosition(this.options.variant.value, this.rules());
    this.pool = new SearchPool(this.options.threads.value, this.options.hash.value);
    this.waitFor(this.pool.ready);
  }

  /** Called when `quit` (or end of input) has been handled and output is complete. */
  setQuitHandler(f: () => void): void {
    this.onQuit = f;
  }

  private rules(): { pharaohRotation: boolean } {
    return { pharaohRotation: this.options.pharaohRotation.value };
  }

  private error(msg: string): void {
    this.write(`info string error: ${msg}`);
  }

  /** Feeds one input line. */
  input(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const cmd = trimmed.split(/\s+/)[0];
    if (this.quitting) return;
    // readyok at once during a search (UCI); after other unfinished work, when it is done
    if (cmd === 'isready' && !this.searching && (this.queue.length > 0 || this.blocked)) {
      this.queue.push(trimmed);
      return;
    }
    if (cmd === 'quit') {
      this.requestQuit();
      return;
    }
    if (IMMEDIATE.has(cmd)) {
      this.execute(trimmed);
      return;
    }
    this.queue.push(trimmed);
    this.pump();
  }

  /**
   * `quit`: a running search stops at once (its bestmove is still printed); the commands that
   * arrived before still run, in order; then the engine exits.
   */
  private requestQuit(): void {
    if (this.quitRequested || this.quitting) return;
    this.quitRequested = true;
    if (this.searching) this.stop();
    this.queue.push('quit');
    this.pump();
  }

  /**
   * Feeds a command that waits for everything before it (command-line arguments: a `go` there
   * runs to its end before the next argument, and the final `quit` waits for it).
   */
  inputInOrder(line: string): void {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || this.quitting) return;
    this.queue.push(trimmed);
    this.pump();
  }

  /** End of input means quit. */
  endOfInput(): void {
    this.requestQuit();
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.searching && !this.blocked && !this.quitting) {
      const line = this.queue.shift()!;
      this.execute(line);
    }
  }

  private execute(line: string): void {
    const tokens = line.split(/\s+/);
    const cmd = tokens[0];
    const args = tokens.slice(1);
    try {
      switch (cmd) {
        case 'uci':
        case 'ugi':
        case 'uki':
          this.handshake(cmd);
          break;
        case 'isready':
          this.write('readyok');
          break;
        case 'setoption':
          this.setoption(args);
          break;
        case 'ucinewgame':
        case 'uginewgame':
        case 'ukinewgame':
          this.waitFor(this.pool.clear());
          break;
        case 'position':
          this.position(args);
          break;
        case 'go':
          this.go(args);
          break;
        case 'stop':
          this.stop();
          break;
        case 'ponderhit':
          this.ponderhit();
          break;
        case 'quit':
          this.quit();
          break;
        case 'd':
          this.display();
          break;
        case 'eval':
          this.evalCommand();
          break;
        case 'bench':
          this.bench(args);
          break;
        case 'perft':
          this.perft(args);
          break;
        case 'query':
          this.query(args);
          break;
        case 'help':
          this.help();
          break;
        default:
          this.error(`unknown command '${cmd}' (try 'help')`);
      }
    } catch (e) {
      this.error(`internal error in '${cmd}': ${e instanceof Error ? e.message : String(e)}`);
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

  private setoption(args: string[]): void {
    // setoption name <id...> [value <x...>]
    if (args[0] !== 'name') return this.error("setoption: expected 'setoption name <id> [value <x>]'");
    const vi = args.indexOf('value');
    const name = (vi >= 0 ? args.slice(1, vi) : args.slice(1)).join(' ');
    const value = vi >= 0 ? args.slice(vi + 1).join(' ') : undefined;
    const option = this.options.find(name);
    if (!option) return this.error(`setoption: unknown option '${name}'`);
    const r = option.set(value);
    if (!r.ok) this.error(`setoption: ${formatOptionError(r.error)}`);
  }

  private position(args: string[]): void {
    const r = parsePosition(args, this.options.variant.value, this.rules());
    if (!r.ok) return this.error(formatPositionError(r.error));
    this.state = r.value;
  }

  private go(args: string[]): void {
    const pos = this.state.pos;
    const num = new Map<string, number>();
    let infinite = false;
    let ponder = false;
    let perftDepth: number | undefined;
    const searchMoves: string[] = [];
    const NUMERIC = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'p1time', 'p2time', 'p1inc', 'p2inc', 'depth', 'nodes', 'mate', 'movetime']);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (NUMERIC.has(a)) {
        const v = args[i + 1];
        if (v === undefined || !/^-?\d+$/.test(v)) {
          this.error(`go: '${a}' needs a whole number, not '${v ?? ''}'`);
          if (v !== undefined && !NUMERIC.has(v)) i++;
          continue;
        }
        num.set(a, Number(v));
        i++;
      } else if (a === 'infinite') {
        infinite = true;
      } else if (a === 'ponder') {
        ponder = true;
      } else if (a === 'perft') {
        const v = args[i + 1];
        if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 20) {
          return this.error(`go perft: depth must be a whole number from 1 to 20, not '${v ?? ''}'`);
        }
        perftDepth = Number(v);
        i++;
      } else if (a === 'searchmoves') {
        for (i = i + 1; i < args.length; i++) {
          const m = parseMove(pos, args[i]);
          if (m.ok) searchMoves.push(formatMove(m.value));
          else this.error(`go searchmoves: ${m.error.message}`);
        }
      } else {
        this.error(`go: unknown token '${a}' ignored`);
      }
    }
    if (perftDepth !== undefined) return this.perft([String(perftDepth)]);

    const status = gameStatus(pos, { noRemovalLimit: this.options.noRemovalDraw.value });
    if (status.result !== 'ongoing' || legalMoves(pos).length === 0) {
      this.write(`info string game over: ${status.text}`);
      this.write('bestmove (none)');
      return;
    }
    const us = pos.side;
    let time = num.get(us === 0 ? 'wtime' : 'btime') ?? num.get(us === 0 ? 'p1time' : 'p2time');
    // A clock for the other side only (as fastchess's compliance check sends): no time for us.
    if (time === undefined && ['wtime', 'btime', 'p1time', 'p2time'].some((k) => num.has(k))) time = 0;
    const inc = num.get(us === 0 ? 'winc' : 'binc') ?? num.get(us === 0 ? 'p1inc' : 'p2inc');
    const budget = infinite
      ? { optimumMs: 0, maximumMs: 0 }
      : timeBudget({ time, inc, movesToGo: num.get('movestogo'), movetime: num.get('movetime') }, this.options.moveOverhead.value);
    const depth = num.get('depth');
    const limits: Omit<SearchLimits, 'searchMoves'> & { searchMoves: string[] } = {
      ...DEFAULT_LIMITS,
      depth: depth !== undefined ? Math.max(1, Math.min(depth, MAX_PLY - 8)) : DEFAULT_LIMITS.depth,
      nodes: Math.max(0, num.get('nodes') ?? 0),
      mate: Math.max(0, num.get('mate') ?? 0),
      optimumMs: budget.optimumMs,
      maximumMs: budget.maximumMs,
      searchMoves,
      multiPV: this.options.multiPV.value,
      noRemovalLimit: this.options.noRemovalDraw.value,
    };
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
        skill: this.options.limitStrength.value ? skillFromElo(this.options.elo.value) : this.options.skillLevel.value,
        random: this.options.random.value && !this.options.ponder.value,
        received: Date.now(),
      },
      ponder,
      (info) => this.write(formatInfo(info)),
    );
    const fallback = formatMove(legalMoves(pos)[0]);
    void done.then((d) => this.finish(d, fallback));
    if (this.quitRequested) this.stop(); // a go queued before quit: answer at once
  }

  private finish(d: SearchDone, fallback: string): void {
    if (d.error) this.error(d.error);
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
    const pos = this.state.pos;
    const ed = pos.edition;
    this.write('');
    this.write('     a   b   c   d   e   f   g   h   i   j');
    this.write('   +---+---+---+---+---+---+---+---+---+---+');
    for (let r = 7; r >= 0; r--) {
      let row = ` ${r + 1} |`;
      for (let f = 0; f < 10; f++) {
        const p = pos.board[r * 10 + f];
        const t = p === 0 ? '' : pieceText(p, ed);
        row += (t.length === 1 ? ` ${t} ` : t.length === 2 ? ` ${t}` : '   ') + '|';
      }
      this.write(row);
      this.write('   +---+---+---+---+---+---+---+---+---+---+');
    }
    this.write('');
    this.write(`Variant: ${ed.id} (${ed.name}), ${ed.colorNames[pos.side]} to move`);
    this.write(`KFEN: ${toKfen(pos)}`);
    this.write(`Key: ${keyHex(pos.keyLo, pos.keyHi)}`);
    this.write(`Status: ${gameStatus(pos, { noRemovalLimit: this.options.noRemovalDraw.value }).text}`);
  }

  private evalCommand(): void {
    const pos = this.state.pos;
    const terms: number[] = [];
    const total = evaluate(pos, undefined, terms);
    this.write(`info string evaluation from ${pos.edition.colorNames[pos.side]}'s point of view (side to move), centi-pyramids`);
    for (let i = 0; i < TERM_NAMES.length; i++) this.write(`info string ${TERM_NAMES[i].padEnd(16)} ${terms[i].toFixed(1)}`);
    this.write(`info string ${'total'.padEnd(16)} ${total}`);
  }

  private bench(args: string[]): void {
    let depth = BENCH_DEPTH;
    let threads = 1;
    if (args[0] !== undefined) {
      if (!/^\d+$/.test(args[0]) || Number(args[0]) < 1 || Number(args[0]) > 30) {
        return this.error(`bench: depth must be a whole number from 1 to 30, not '${args[0]}'`);
      }
      depth = Number(args[0]);
    }
    if (args[1] !== undefined) {
      if (!/^\d+$/.test(args[1]) || Number(args[1]) < 1 || Number(args[1]) > MAX_THREADS) {
        return this.error(`bench: threads must be a whole number from 1 to ${MAX_THREADS}, not '${args[1]}'`);
      }
      threads = Number(args[1]);
    }
    const summary = (r: { ms: number; nodes: number; nps: number }): void => {
      this.write('');
      this.write(`Total time (ms) : ${r.ms}`);
      this.write(`Nodes searched  : ${r.nodes}`);
      this.write(`Nodes/second    : ${r.nps}`);
    };
    if (threads === 1) {
      summary(runBench(depth, (line) => this.write(line), BENCH_POSITIONS, this.options.features()));
      return;
    }
    // Parallel bench: the same positions searched by a pool of `threads` (Lazy SMP); measures
    // throughput. Its node count varies from run to run, unlike the one-thread signature.
    const run = async (): Promise<void> => {
      const pool = new SearchPool(threads, 16);
      let nodes = 0;
      const t0 = performance.now();
      try {
        for (let i = 0; i < BENCH_POSITIONS.length; i++) {
          const { edition, kfen } = BENCH_POSITIONS[i];
          await pool.clear();
          const d = await pool.start(
            {
              edition, pharaohRotation: false, kfen, moves: [], received: Date.now(),
              limits: { ...DEFAULT_LIMITS, depth, searchMoves: [] }, features: this.options.features(),
            },
            false,
            () => {},
          );
          if (d.error) throw new Error(d.error);
          nodes += d.nodes;
          this.write(`info string bench ${i + 1}/${BENCH_POSITIONS.length} ${edition} nodes ${d.nodes} bestmove ${d.best}`);
        }
      } finally {
        await pool.destroy();
      }
      const ms = Math.max(1, Math.round(performance.now() - t0));
      summary({ ms, nodes, nps: Math.round((nodes * 1000) / ms) });
    };
    this.waitFor(run());
  }

  private perft(args: string[]): void {
    const v = args[0];
    if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 20) {
      return this.error(`perft: depth must be a whole number from 1 to 20, not '${v ?? ''}'`);
    }
    const t0 = performance.now();
    const lines = divide(this.state.pos, Number(v));
    let total = 0;
    for (const l of lines) {
      this.write(`${l.move}: ${l.nodes}`);
      total += l.nodes;
    }
    const ms = performance.now() - t0;
    this.write('');
    this.write(`Nodes searched: ${total}`);
    this.write(`Time: ${(ms / 1000).toFixed(3)} s`);
    this.write(`Nodes/second: ${Math.round(total / Math.max(ms / 1000, 1e-6))}`);
  }

  private query(args: string[]): void {
    const pos = this.state.pos;
    const status = gameStatus(pos, { noRemovalLimit: this.options.noRemovalDraw.value });
    switch (args[0]) {
      case 'gameover':
        this.write(`response ${status.result !== 'ongoing'}`);
        break;
      case 'p1turn':
        this.write(`response ${pos.side === 0}`);
        break;
      case 'result':
        this.write(`response ${status.result === 'win' ? (status.winner === 0 ? 'p1win' : 'p2win') : status.result === 'draw' ? 'draw' : 'none'}`);
        break;
      default:
        this.error(`query: expected gameover, p1turn or result, not '${args[0] ?? ''}'`);
    }
  }

  private help(): void {
    const lines = [
      'Thoth speaks a UCI-like protocol (see protocol.md). Commands:',
      '  uci | ugi | uki            handshake: id, options, uciok/ugiok/ukiok',
      '  isready                    readyok (also during a search)',
      '  setoption name <id> [value <x>]',
      '  ucinewgame                 forget the hash and history',
      '  position startpos | setup <classic|imhotep|dynasty> | kfen <KFEN> [moves m1 m2 ...]',
      '  go [wtime W btime B winc I binc I movestogo M | movetime T | depth D | nodes N | mate M | infinite | ponder] [searchmoves m ...]',
      '  go perft <depth>           perft per root move',
      '  stop | ponderhit | quit',
      '  d                          show the board, KFEN and key',
      '  eval                       the evaluation, term by term',
      `  bench [depth]              search the built-in positions to depth (default ${BENCH_DEPTH})`,
      '  query gameover|p1turn|result',
    ];
    for (const l of lines) this.write(`info string ${l}`);
  }
}
