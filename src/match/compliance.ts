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
  /** The step that failed and why; undefined when every step passed. */
  failed?: { step: string; why: string };
  name?: string;
}

class Failure extends Error {}
const fail = (why: string): never => {
  throw new Failure(why);
};

/** Runs the steps against the engine `command`; `write` hears a line per step. */
export async function checkCompliance(
  command: string[],
  write: (line: string) => void,
  timeoutMs = 10_000,
): Promise<ComplianceResult> {
  const e = new EngineProcess({
    name: 'engine',
    nameGiven: false,
    command,
    options: [],
    limits: {},
    timeMarginMs: 0,
  });
  const result: ComplianceResult = { passed: [] };
  const lines: string[] = [];
  e.onLine = (l) => lines.push(l);
  let pos = position(SETUPS.khet2.classic, []);

  /** Waits for a line (lines before it are kept in `lines`). */
  const expect = async (match: (l: string) => boolean, what: string, ms = timeoutMs): Promise<string> => {
    const r = await e.waitFor(match, ms);
    if (r.kind === 'line') return r.line;
    if (r.kind === 'exit') return fail(`the process ended (${e.exitText()}) waiting for ${what}`);
    return fail(`no ${what} within ${ms / 1000} s`);
  };
  const ready = async (): Promise<void> => {
    e.send('isready');
    await expect((l) => l === 'readyok', "'readyok'");
  };
  /** A go: its bestmove within `ms`, checked legal in `p`, and its info lines read. */
  const bestmove = async (
    go: string,
    p: Position,
    ms: number,
  ): Promise<{ move: number; infos: string[]; elapsed: number }> => {
    lines.length = 0;
    const t0 = performance.now();
    e.send(go);
    const line = await expect((l) => l === 'bestmove' || l.startsWith('bestmove '), "'bestmove'", ms);
    const elapsed = performance.now() - t0;
    const text = line.split(/\s+/)[1] ?? '';
    const m = parseMove(p, text);
    if (!m.ok) fail(`'${line}': ${m.error.message}`);
    const infos = lines.filter((l) => l.startsWith('info ') && !l.startsWith('info string'));
    for (const i of infos) {
      const r = parseInfo(i);
      if (!r.ok) fail(`'${i}' does not read: ${r.error.field}: ${r.error.message}`);
    }
    return { move: m.ok ? m.value : 0, infos, elapsed };
  };

  const steps: Record<string, () => Promise<void>> = {
    uci: async () => {
      e.send('uci');
      await expect((l) => l === 'uciok', "'uciok'");
      const name = lines.find((l) => /^id name \S/.test(l));
      if (!name) fail("no 'id name' before 'uciok'");
      if (!lines.some((l) => /^id author \S/.test(l))) fail("no 'id author' before 'uciok'");
      result.name = name?.slice(8);
    },
    options: async () => {
      for (const l of lines.filter((x) => x.startsWith('option '))) {
        if (parseOptionLine(l) === undefined) fail(`'${l}' does not read as an option line`);
      }
    },
    isready: ready,
    setoption: async () => {
      if (!lines.some((l) => /^option name Hash type spin\b/.test(l))) return;
      lines.length = 0;
      e.send('setoption name Hash value 16');
      await ready();
      const error = lines.find((l) => l.startsWith('info string error'));
      if (error) fail(`'${error}'`);
    },
    ucinewgame: async () => {
      e.send('ucinewgame');
      await ready();
    },
    position: async () => {
      e.send('position startpos');
      await ready();
      pos = position(SETUPS.khet2.classic, []);
    },
    'go clock': async () => {
      const r = await bestmove('go wtime 1000 btime 1000 winc 10 binc 10', pos, 1000 + 2000);
      if (!r.infos.some((i) => / score (cp|mate) /.test(i))) fail("no 'info … score' line before 'bestmove'");
      pos.make(r.move);
    },
    'go btime': async () => {
      e.send(`position startpos moves ${formatMove(pos.moveAt(0))}`);
      await bestmove('go btime 200 wtime 200', pos, 200 + 2000);
    },
    'go depth': async () => {
      e.send('position startpos');
      pos = position(SETUPS.khet2.classic, []);
      await bestmove('go depth 2', pos, timeoutMs);
    },
    'go nodes': async () => {
      await bestmove('go nodes 2000', pos, timeoutMs);
    },
    'go movetime': async () => {
      const r = await bestmove('go movetime 200', pos, 200 + 2000);
      if (r.elapsed > 200 + 500) fail(`'bestmove' after ${Math.round(r.elapsed)} ms of a 200 ms move time`);
    },
    'position kfen': async () => {
      e.send(`position kfen ${KFEN_STEP.kfen} moves ${KFEN_STEP.moves.join(' ')}`);
      pos = position(KFEN_STEP.kfen, KFEN_STEP.moves);
      await bestmove('go depth 2', pos, timeoutMs);
    },
    'go infinite': async () => {
      lines.length = 0;
      e.send('go infinite');
      const early = await e.waitFor((l) => l.startsWith('bestmove'), 300);
      if (early.kind === 'line') fail(`'${early.line}' before 'stop'`);
      if (early.kind === 'exit') fail(`the process ended (${e.exitText()})`);
      e.send('isready');
      await expect((l) => l === 'readyok' || l.startsWith('bestmove'), "'readyok' during the search").then((l) => {
        if (l !== 'readyok') fail(`'${l}' before 'stop'`);
      });
      await bestmove('stop', pos, 2000);
    },
    'bad position': async () => {
      lines.length = 0;
      e.send('position startpos moves e9e9');
      await ready();
      if (!lines.some((l) => l.startsWith('info string error')))
        fail("no 'info string error: …' for a move that does not exist");
      // the position of the kfen step is kept
      await bestmove('go depth 1', pos, timeoutMs);
    },
    quit: async () => {
      e.send('quit');
      const r = await e.waitFor(() => false, 2000);
      if (r.kind !== 'exit') fail("still running 2 s after 'quit'");
    },
  };

  e.start();
  try {
    for (const step of COMPLIANCE_STEPS) {
      try {
        await steps[step.name]();
      } catch (err) {
        if (!(err instanceof Failure)) throw err;
        result.failed = { step: step.name, why: err.message };
        write(`step ${result.passed.length + 1} ${step.name}: FAIL: ${err.message}`);
        break;
      }
      result.passed.push(step.name);
      write(`step ${result.passed.length} ${step.name}: ok (${step.what})`);
    }
  } finally {
    if (e.alive) e.kill();
  }
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
