/**
 * `thoth match --compliance CMD`: an engine checked step by step against protocol.md, as
 * fastchess's `--compliance` checks a UCI engine (docs/match.md, "Compliance"). Each step sends
 * commands and says what the answer must be; the check stops at the first step that fails and
 * names it. The cheapest way for another Khet program to adopt Thoth's protocol.
 */
import { SETUPS, formatMove, parseKfen, parseMove, type Position } from '../core/index';
import { parseInfo } from '../core/info';
import { parseOptionLine } from '../core/option-line';
import { EngineProcess } from './engine-process';

export interface ComplianceStep {
  name: string;
  /** What it checks, in words. */
  what: string;
}

/** A position for the kfen step: Dynasty after a few moves (any legal board will do). */
const KFEN_STEP = { kfen: SETUPS.khet2.dynasty!, moves: ['d3c2', 'a6-'] };

export const COMPLIANCE_STEPS: readonly ComplianceStep[] = [
  { name: 'uci', what: "'uci' is answered by 'id name', 'id author', its options and 'uciok'" },
  { name: 'options', what: "every 'option' line reads as protocol.md writes them" },
  { name: 'isready', what: "'isready' is answered by 'readyok'" },
  { name: 'setoption', what: "'setoption name Hash value 16' (when declared) is taken without an error" },
  { name: 'ucinewgame', what: "'ucinewgame' then 'isready': 'readyok'" },
  { name: 'position', what: "'position startpos' then 'isready': 'readyok'" },
  {
    name: 'go clock',
    what: "'go wtime 1000 btime 1000 winc 10 binc 10': a legal 'bestmove' in time, 'info … score' lines that read",
  },
  { name: 'go btime', what: "after a move, 'go btime 200 wtime 200': a legal 'bestmove' for the second player" },
  { name: 'go depth', what: "'go depth 2': a legal 'bestmove'" },
  { name: 'go nodes', what: "'go nodes 2000': a legal 'bestmove'" },
  { name: 'go movetime', what: "'go movetime 200': a legal 'bestmove' within 200 ms and a margin" },
  { name: 'position kfen', what: "'position kfen <KFEN> moves …': a legal 'bestmove' in that position" },
  {
    name: 'go infinite',
    what: "'go infinite': no 'bestmove' before 'stop', 'readyok' to 'isready' meanwhile, then a legal one",
  },
  { name: 'bad position', what: "'position startpos moves e9e9': 'info string error: …', the position before kept" },
  { name: 'quit', what: "'quit': the process ends" },
];

export interface ComplianceResult {
  /** The steps passed, in order. */
  passed: string[];
  /**
   * The step that failed and why; undefined when every step passed. `slow`: it waited past the
   * check's own limit (the `timeoutMs` it was given), not past a limit of the protocol's.
   */
  failed?: { step: string; why: string; slow?: boolean };
  name?: string;
}

class Failure extends Error {
  constructor(
    why: string,
    readonly slow = false,
  ) {
    super(why);
  }
}
const failStep = (why: string, slow = false): never => {
  throw new Failure(why, slow);
};

/** One check: the engine, the lines it wrote since the last clear, the position it is in. */
class ComplianceRun {
  readonly e: EngineProcess;
  readonly lines: string[] = [];
  pos = position(SETUPS.khet2.classic, []);
  name?: string;

  constructor(
    command: string[],
    private readonly timeoutMs: number,
  ) {
    this.e = new EngineProcess({ name: 'engine', nameGiven: false, command, options: [], limits: {}, timeMarginMs: 0 });
    this.e.onLine = (l) => this.lines.push(l);
  }

  /** Waits for a line (lines before it are kept in `lines`). */
  async expect(match: (l: string) => boolean, what: string, ms = this.timeoutMs): Promise<string> {
    const r = await this.e.waitFor(match, ms);
    if (r.kind === 'line') return r.line;
    if (r.kind === 'exit') return failStep(`the process ended (${this.e.exitText()}) waiting for ${what}`);
    return failStep(`no ${what} within ${ms / 1000} s`, ms === this.timeoutMs);
  }

  async ready(): Promise<void> {
    this.e.send('isready');
    await this.expect((l) => l === 'readyok', "'readyok'");
  }

  /** A go: its bestmove within `ms`, checked legal in `p`, and its info lines read. */
  async bestmove(go: string, p: Position, ms: number): Promise<{ move: number; infos: string[]; elapsed: number }> {
    this.lines.length = 0;
    const t0 = performance.now();
    this.e.send(go);
    const line = await this.expect((l) => l === 'bestmove' || l.startsWith('bestmove '), "'bestmove'", ms);
    const elapsed = performance.now() - t0;
    const text = line.split(/\s+/)[1] ?? '';
    const m = parseMove(p, text);
    if (!m.ok) return failStep(`'${line}': ${m.error.message}`);
    const infos = this.lines.filter((l) => l.startsWith('info ') && !l.startsWith('info string'));
    for (const i of infos) {
      const r = parseInfo(i);
      if (!r.ok) failStep(`'${i}' does not read: ${r.error.field}: ${r.error.message}`);
    }
    return { move: m.value, infos, elapsed };
  }

  async uci(): Promise<void> {
    this.e.send('uci');
    await this.expect((l) => l === 'uciok', "'uciok'");
    const name = this.lines.find((l) => /^id name \S/.test(l));
    if (!name) failStep("no 'id name' before 'uciok'");
    if (!this.lines.some((l) => /^id author \S/.test(l))) failStep("no 'id author' before 'uciok'");
    this.name = name?.slice(8);
  }

  options(): void {
    for (const l of this.lines.filter((x) => x.startsWith('option '))) {
      if (parseOptionLine(l) === undefined) failStep(`'${l}' does not read as an option line`);
    }
  }

  async setoption(): Promise<void> {
    if (!this.lines.some((l) => /^option name Hash type spin\b/.test(l))) return;
    this.lines.length = 0;
    this.e.send('setoption name Hash value 16');
    await this.ready();
    const error = this.lines.find((l) => l.startsWith('info string error'));
    if (error) failStep(`'${error}'`);
  }

  async goInfinite(): Promise<void> {
    this.lines.length = 0;
    this.e.send('go infinite');
    const early = await this.e.waitFor((l) => l.startsWith('bestmove'), 300);
    if (early.kind === 'line') failStep(`'${early.line}' before 'stop'`);
    if (early.kind === 'exit') failStep(`the process ended (${this.e.exitText()})`);
    this.e.send('isready');
    const l = await this.expect((x) => x === 'readyok' || x.startsWith('bestmove'), "'readyok' during the search");
    if (l !== 'readyok') failStep(`'${l}' before 'stop'`);
    await this.bestmove('stop', this.pos, 2000);
  }

  async badPosition(): Promise<void> {
    this.lines.length = 0;
    this.e.send('position startpos moves e9e9');
    await this.ready();
    if (!this.lines.some((l) => l.startsWith('info string error')))
      failStep("no 'info string error: …' for a move that does not exist");
    // the position before is kept
    await this.bestmove('go depth 1', this.pos, this.timeoutMs);
  }

  async quit(): Promise<void> {
    this.e.send('quit');
    const r = await this.e.waitFor(() => false, 2000);
    if (r.kind !== 'exit') failStep("still running 2 s after 'quit'");
  }
}

/** Each step's commands and checks, by name. */
function stepsOf(c: ComplianceRun, timeoutMs: number): Record<string, () => Promise<void> | void> {
  return {
    uci: () => c.uci(),
    options: () => c.options(),
    isready: () => c.ready(),
    setoption: () => c.setoption(),
    ucinewgame: async () => {
      c.e.send('ucinewgame');
      await c.ready();
    },
    position: async () => {
      c.e.send('position startpos');
      await c.ready();
      c.pos = position(SETUPS.khet2.classic, []);
    },
    'go clock': async () => {
      const r = await c.bestmove('go wtime 1000 btime 1000 winc 10 binc 10', c.pos, 1000 + 2000);
      if (!r.infos.some((i) => / score (cp|mate) /.test(i))) failStep("no 'info … score' line before 'bestmove'");
      c.pos.make(r.move);
    },
    'go btime': async () => {
      c.e.send(`position startpos moves ${formatMove(c.pos.moveAt(0))}`);
      await c.bestmove('go btime 200 wtime 200', c.pos, 200 + 2000);
    },
    'go depth': async () => {
      c.e.send('position startpos');
      c.pos = position(SETUPS.khet2.classic, []);
      await c.bestmove('go depth 2', c.pos, timeoutMs);
    },
    'go nodes': async () => {
      await c.bestmove('go nodes 2000', c.pos, timeoutMs);
    },
    'go movetime': async () => {
      const r = await c.bestmove('go movetime 200', c.pos, 200 + 2000);
      if (r.elapsed > 200 + 500) failStep(`'bestmove' after ${Math.round(r.elapsed)} ms of a 200 ms move time`);
    },
    'position kfen': async () => {
      c.e.send(`position kfen ${KFEN_STEP.kfen} moves ${KFEN_STEP.moves.join(' ')}`);
      c.pos = position(KFEN_STEP.kfen, KFEN_STEP.moves);
      await c.bestmove('go depth 2', c.pos, timeoutMs);
    },
    'go infinite': () => c.goInfinite(),
    'bad position': () => c.badPosition(),
    quit: () => c.quit(),
  };
}

/** How long the check waits for an answer whose time protocol.md does not set. */
export const COMPLIANCE_TIMEOUT_MS = 10_000;

/**
 * Runs the steps against the engine `command`; `write` hears a line per step. `timeoutMs`: the
 * wait for `uciok`, each `readyok`, and a `go depth` / `go nodes` search.
 */
export async function checkCompliance(
  command: string[],
  write: (line: string) => void,
  timeoutMs = COMPLIANCE_TIMEOUT_MS,
): Promise<ComplianceResult> {
  const c = new ComplianceRun(command, timeoutMs);
  const steps = stepsOf(c, timeoutMs);
  const result: ComplianceResult = { passed: [] };
  c.e.start();
  try {
    for (const step of COMPLIANCE_STEPS) {
      try {
        await steps[step.name]();
      } catch (err) {
        if (!(err instanceof Failure)) throw err;
        result.failed = { step: step.name, why: err.message, ...(err.slow ? { slow: true } : {}) };
        write(`step ${result.passed.length + 1} ${step.name}: FAIL: ${err.message}`);
        break;
      }
      result.passed.push(step.name);
      write(`step ${result.passed.length} ${step.name}: ok (${step.what})`);
    }
  } finally {
    if (c.e.alive) c.e.kill();
  }
  result.name = c.name;
  return result;
}

function position(kfen: string, moves: string[]): Position {
  const r = parseKfen(kfen, 'khet2');
  if (!r.ok) throw new Error(r.error.message);
  for (const t of moves) {
    const m = parseMove(r.value, t);
    if (!m.ok) throw new Error(m.error.message);
    r.value.make(m.value);
  }
  return r.value;
}
