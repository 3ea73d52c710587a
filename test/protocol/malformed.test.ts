/**
 * The built engine and bad input: every malformed line is answered by `info string error: …`,
 * the engine stays responsive, and the position is unchanged (the `d` KFEN before and after).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toKfen } from '../../src/core/index';
import { CLASSIC, type Engine, MATE_IN_1, assertBuilt, checkBestmove, positionOf, startEngine } from './spawn-engine';

/** The position every row starts from (not the start position, so a reset would show). */
const SETUP_MOVES = ['c1d2', 'h8g7', 'j1-'];
const BEFORE = toKfen(positionOf(CLASSIC, SETUP_MOVES));

/** Lines answered with one error line and nothing else (no search). */
const ERRORS: string[] = [
  'foo',
  'foo bar baz',
  'xyzzy 1 2 3',
  'setoption name Hash value x',
  'setoption name Nope value 1',
  'setoption name UCI_Variant value chess',
  'setoption',
  'position',
  'position nonsense',
  'position setup',
  'position setup chess',
  'position kfen',
  'position fen',
  'position kfen xv9/10 s 0 1',
  `position kfen ${CLASSIC.replace(' s ', ' x ')}`,
  `position kfen ${CLASSIC.replace('xv3', 'zv3')}`,
  `position kfen ${CLASSIC.replace(' 0 1', ' 0')}`,
  `position kfen ${CLASSIC.replace(' 0 1', ' -3 1')}`,
  `position kfen ${CLASSIC.replace('/2pv7/', '/2pv8/')}`,
  'position kfen xv3avkavp>2/2pv7/3P<6/p^1Pv1s^s>1p>1P</p>1P<1S>S^1p^1Pv/6p>3/7P^2/2P<A^KA^3X^ s 0 1 moves zz',
  'position startpos moves z9z9',
  'position startpos moves c1c3',
  'position startpos moves c1d2 c1d2',
  'position startpos moves j1- a8+',
  'position startpos moves c1d2 h8g7 e1e2 e1e2',
  'position startpos nonsense c1d2',
  'position startpos moves c1d2 moves h8g7',
  `position kfen ${MATE_IN_1} moves j5+ a8-`,
  'position kfen ☃ s 0 1',
  'go perft x',
  'go perft 0',
  'go perft 999',
  'perft',
  'perft -1',
  'perft 2 x',
  'bench x',
  'bench 0',
  'bench 1 1 x',
  'debug',
  'debug maybe',
  'query',
  'query foo',
  'flip',
  `garbage ${'x'.repeat(20_000)}`,
];

/**
 * `go` lines whose arguments do not parse: one error line and nothing started (no search, no
 * bestmove), the engine ready for the next command (protocol.md, `go`).
 */
const GO_ERRORS: string[] = [
  'go depth banana',
  'go depth x nodes 2000',
  'go nodes 1e6 depth 2',
  'go nodes -5',
  'go depth -1',
  'go depth 2.5',
  'go movetime',
  'go movetime soon depth 2',
  'go wtime abc btime 100 depth 2',
  'go wtime 1000 btime',
  'go winc -10 wtime 1000 btime 1000',
  'go movestogo -1 wtime 1000 btime 1000',
  'go depth 2 frobnicate',
  'go frobnicate',
  'go infinite please',
  'go searchmoves zz',
  'go searchmoves',
  'go depth 2 searchmoves e5d4 zz9',
  'go depth 2 searchmoves c1d2',
  'go infinite searchmoves e5d4 depth 3',
  'go perft 3 depth x',
];

/** A token of 20,000 characters, and a name of 5,000 words. */
const LONG = 'x'.repeat(20_000);
const WORDS = 'w '.repeat(5_000).trim();

/** Lines that put the long input where each error message quotes the input. */
const LONG_ERRORS: string[] = [
  LONG,
  `garbage ${LONG}`,
  `setoption name ${LONG}`,
  `setoption name ${WORDS}`,
  `setoption name Hash value ${LONG}`,
  `setoption name Ponder value ${LONG}`,
  `setoption name UCI_Variant value ${LONG}`,
  `setoption name EvalFile value /${LONG}`,
  `setoption name EvalFile value ${WORDS}`,
  `position ${LONG}`,
  `position setup ${LONG}`,
  `position kfen ${LONG}`,
  `position kfen ${LONG} s 0 1`,
  `position kfen ${CLASSIC.replace(' s ', ` ${LONG} `)}`,
  `position kfen ${CLASSIC.replace(' 0 1', ` ${LONG} 1`)}`,
  `position kfen ${CLASSIC.replace(' 0 1', ` 0 ${LONG}`)}`,
  `position startpos ${LONG}`,
  `position startpos moves ${LONG}`,
  `position startpos moves c1d2 c1${LONG}`,
  `position kfen ${MATE_IN_1} moves j5+ ${LONG}`,
  `go ${LONG}`,
  `go depth ${LONG}`,
  `go searchmoves ${LONG}`,
  `perft ${LONG}`,
  `perft 2 ${LONG}`,
  `bench ${LONG}`,
  `bench 1 ${LONG}`,
  `bench 1 1 ${LONG}`,
  `debug ${LONG}`,
  `debug ${WORDS}`,
  `query ${LONG}`,
];

/** Numbers past the range of an option: the error names the value as given (clipped), not as a double. */
const NINES = '9'.repeat(20_000);
const BIG_NUMBERS: [string, string][] = [
  [`setoption name Hash value ${NINES}`, `not ${'9'.repeat(200)}… (20000 characters)`],
  [`setoption name MultiPV value -${NINES}`, `not -${'9'.repeat(199)}… (20001 characters)`],
  [`setoption name Hash value 1${'0'.repeat(30)}`, `not 1${'0'.repeat(30)}`],
  ['setoption name Hash value 9000', 'not 9000'],
];

/** Lines that are ignored without a word. */
const SILENT: string[] = ['', '   ', '\t', ' \t  ', '# a comment', '#', 'stop', 'ponderhit'];

describe('malformed input', () => {
  let e: Engine;
  beforeAll(async () => {
    assertBuilt();
    e = await startEngine();
  });
  afterAll(() => e?.kill());

  async function setUp(): Promise<void> {
    e.send(`position startpos moves ${SETUP_MOVES.join(' ')}`);
    expect(await e.sync()).toEqual([]);
    expect(await e.kfen()).toBe(BEFORE);
  }

  it.each(
    ERRORS.map((line) => ({ line, label: line.length > 80 ? `${line.slice(0, 40)}… (${line.length} chars)` : line })),
  )("'$label' → info string error, engine alive, position unchanged", async ({ line }) => {
    await setUp();
    e.send(line);
    const out = await e.sync();
    // protocol.md: each gives one line `info string error: <what and where>`
    expect(out.length, `output of '${line.slice(0, 80)}': ${JSON.stringify(out).slice(0, 300)}`).toBe(1);
    expect(out[0]).toMatch(/^info string error: \S/);
    expect(out[0].length, 'a readable message, not an echo of 20 kB').toBeLessThan(400);
    expect(await e.kfen()).toBe(BEFORE);
  });

  it.each(BIG_NUMBERS.map(([line, named]) => ({ line, named, label: line.replace(/9{20000}/, '9×20000') })))(
    "'$label' → one error line naming the value as given",
    async ({ line, named }) => {
      await setUp();
      e.send(line);
      const out = await e.sync();
      expect(out).toHaveLength(1);
      expect(out[0]).toMatch(/^info string error: setoption: (Hash|MultiPV) must be from \d+ to \d+, /);
      expect(out[0].endsWith(named), out[0].slice(0, 300)).toBe(true);
      expect(await e.kfen()).toBe(BEFORE);
    },
  );

  it.each(
    LONG_ERRORS.map((line, i) => ({
      i,
      label: line
        .replace(/x{20000}/, 'x×20000')
        .replace(/(w ){4999}w/, 'w×5000')
        .slice(0, 80),
    })),
  )("long input $i, '$label': one error line quoting at most ~200 characters of it", async ({ i }) => {
    const line = LONG_ERRORS[i];
    await setUp();
    e.send(line);
    const out = await e.sync();
    expect(out.length, JSON.stringify(out).slice(0, 300)).toBe(1);
    expect(out[0]).toMatch(/^info string error: \S/);
    const longest = Math.max(...[...out[0].matchAll(/x+|(?:w )+w?/g)].map((m) => m[0].length));
    expect(longest, out[0].slice(0, 400)).toBeLessThanOrEqual(201);
    expect(out[0].length, out[0].slice(0, 400)).toBeLessThan(500);
    // clipped once: one length, and the quote around a clipped word closed
    expect(out[0], out[0].slice(0, 400)).not.toMatch(/characters\) \(\d+ characters\)/);
    if (/'x+…/.test(out[0])) expect(out[0], out[0].slice(0, 400)).toMatch(/'x+… \(\d+ characters\)'/);
    expect(await e.kfen()).toBe(BEFORE);
  });

  it.each(GO_ERRORS)("'%s' → one error line, no search started, position unchanged", async (line) => {
    await setUp();
    e.send(line);
    const out = await e.sync();
    expect(out, `output of '${line}'`).toHaveLength(1);
    expect(out[0]).toMatch(/^info string error: go\b/);
    // nothing runs: a queued command is answered at once
    expect(await e.kfen()).toBe(BEFORE);
    // the next go works, and its output is its own: one depth-1 search, one bestmove (a search
    // started by the bad line would show deeper reports or a second bestmove)
    e.send('go depth 1');
    const ls = (await e.collect(/^bestmove /, 10_000)).map((l) => l.text);
    checkBestmove(ls[ls.length - 1], positionOf(CLASSIC, SETUP_MOVES));
    expect(ls.filter((l) => l.startsWith('info string error'))).toEqual([]);
    expect(ls.filter((l) => l.startsWith('info depth ') && !l.startsWith('info depth 1 '))).toEqual([]);
    expect(await e.sync()).toEqual([]);
  });

  it.each(SILENT.map((line) => ({ line, label: JSON.stringify(line) })))(
    '$label is ignored silently',
    async ({ line }) => {
      await setUp();
      e.send(line);
      expect(await e.sync()).toEqual([]);
      expect(await e.kfen()).toBe(BEFORE);
    },
  );

  it('a burst of bad lines, then good ones: every line is answered in order', async () => {
    await setUp();
    for (const l of ERRORS.slice(0, 12)) e.send(l);
    e.send('position startpos moves c1d2');
    e.send('isready');
    const out = (await e.collect(/^readyok$/)).map((l) => l.text);
    expect(out.filter((l) => l.startsWith('info string error: ')).length).toBeGreaterThanOrEqual(12);
    expect(await e.kfen()).toBe(toKfen(positionOf(CLASSIC, ['c1d2'])));
  });

  it('an illegal move list leaves the previous position, not a partly played one', async () => {
    await setUp();
    // the first two moves are legal, the third is not
    e.send('position startpos moves c1d2 h8g7 c1d2');
    const out = await e.sync();
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^info string error: .*move 3/);
    expect(await e.kfen()).toBe(BEFORE);
  });
});
