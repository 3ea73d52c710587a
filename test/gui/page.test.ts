/** The page's logic that needs no browser: info parsing, the game tree, records. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KILL, setupKfen, squareName } from '../../src/core/index';
import { parseOptionLine } from '../../src/core/option-line';
import { pvInfo } from '../../src/core/info';
import {
  exportGame,
  exportInput,
  formatImportError,
  importGame,
  importedTree,
  loadImported,
} from '../../src/gui/page/state/record-io';
import * as S from '../../src/gui/page/state/state';
import {
  addMoves,
  deleteNode,
  mainline,
  newTree,
  positionAt,
  positionCommand,
  type GameTree,
} from '../../src/gui/page/state/tree';

/** A tree with `moves` played on the main line. */
function game(edition: 'khet2' | 'khet1', kfen: string, moves: string[]): GameTree {
  const t = newTree(edition, kfen);
  if (!t.ok) throw new Error(t.error);
  const r = addMoves(t.value, [], moves);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.tree;
}

const CLASSIC = setupKfen('khet2', 'classic') as string;

describe('engine lines', () => {
  it('shows info lines with a depth, a score and moves', () => {
    expect(
      pvInfo(
        'info depth 12 seldepth 18 multipv 2 score cp -35 upperbound nodes 123456 nps 1000000 hashfull 12 time 123 pv c1b2 j5i4 c4+',
      ),
    ).toEqual({
      depth: 12,
      seldepth: 18,
      multipv: 2,
      score: { kind: 'cp', value: -35 },
      bound: 'upper',
      nodes: 123456,
      nps: 1000000,
      hashfull: 12,
      time: 123,
      pv: ['c1b2', 'j5i4', 'c4+'],
    });
    expect(pvInfo('info depth 3 score mate -2 pv a8+')).toMatchObject({
      depth: 3,
      multipv: 1,
      score: { kind: 'mate', value: -2 },
      pv: ['a8+'],
    });
    expect(pvInfo('info string hello pv x')).toBeNull();
    expect(pvInfo('info depth 5 currmove c1b2 currmovenumber 3')).toBeNull();
    expect(pvInfo('info depth 5 score cp 3 pv')).toBeNull();
    expect(pvInfo('bestmove c1b2')).toBeNull();
  });

  it('parses option lines', () => {
    expect(parseOptionLine('option name Move Overhead type spin default 10 min 0 max 5000')).toEqual({
      name: 'Move Overhead',
      type: 'spin',
      default: '10',
      min: 0,
      max: 5000,
      vars: [],
    });
    expect(
      parseOptionLine('option name UCI_Variant type combo default khet2 var khet2 var khet1 var deflexion')?.vars,
    ).toEqual(['khet2', 'khet1', 'deflexion']);
    expect(parseOptionLine('id name Thoth')).toBeUndefined();
  });
});

describe('the game tree', () => {
  it('records the beam of each move, with the removed piece', () => {
    // Silver's j4i3 sends the beam j1 j2 j3 j4... and removes a piece (docs/rules.md §7.2: j4i3x).
    const g = game('khet2', CLASSIC, ['j4i3']);
    const p = mainline(g)[0].ply;
    expect(p.side).toBe(0);
    expect(p.killedSq).toBeGreaterThanOrEqual(0);
    const last = p.beam.steps[p.beam.steps.length - 1];
    expect(last.out).toBe(KILL);
    expect(squareName(last.square)).toBe(squareName(p.killedSq));
    expect(p.beam.steps[0].square).toBe(9); // from the Sphinx on j1
    expect(positionAt(g, [0]).board[p.killedSq]).toBe(0);
    expect(positionCommand(g, [0])).toBe(`position kfen ${CLASSIC} moves j4i3`);
    expect(mainline(deleteNode(g, [0]))).toHaveLength(0);
  });

  it('knows when a Pharaoh hit ends the game', () => {
    const g = game('khet2', 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1', ['j1+']);
    expect(positionAt(g, [0]).winner).toBe(0);
  });

  it('traces fixed lasers from the board edge (Khet 1.0)', () => {
    const p = mainline(game('khet1', setupKfen('khet1', 'classic') as string, ['c1b2']))[0].ply;
    expect(p.laser).toEqual({ square: 9, dir: 0, strikeFirst: true });
    expect(p.beam.steps.map((s) => squareName(s.square)).slice(0, 4)).toEqual(['j1', 'j2', 'j3', 'j4']);
  });
});

describe('game records', () => {
  it('exports in the runner format and imports it back', () => {
    const text = exportGame({
      edition: 'khet2',
      startKfen: CLASSIC,
      players: ['Human', 'Thoth 0.1.0'],
      result: '*',
      timeControl: '300+3',
      termination: 'unterminated',
      moves: [
        { text: 'c1d2', side: 0 },
        { text: 'a4a3', side: 1, engine: { scoreCp: 12, depth: 7, timeMs: 1500 } },
        { text: 'j5-', side: 0 },
      ],
    });
    expect(text).toContain('[White "Human"]');
    expect(text).toContain('[Black "Thoth 0.1.0"]');
    expect(text).toContain('[Termination "unterminated"]');
    expect(text).toContain('1. c1d2 a4a3 {+0.12/7 1.500s} 2. j5- *');
    const r = importGame(text);
    expect(r).toMatchObject({ ok: true, value: { edition: 'khet2', startKfen: CLASSIC, result: '*' } });
    if (r.ok) expect(r.value.moves.map((m) => m.text)).toEqual(['c1d2', 'a4a3', 'j5-']);
  });

  it("keeps an imported game's tags and comments, and writes clocks", () => {
    const r = importGame(
      '[Event "Club night"]\n[Silver "Alice"]\n[Red "Bob"]\n[Annotator "Carol"]\n[Variant "khet2"]\n[TimeControl "60+1"]\n\n' +
        '1. c1d2 {[%clk 0:01:00] a quiet start} a4a3 {+0.12/7 1.500s} *\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.moves[0]).toEqual({ text: 'c1d2', comment: 'a quiet start', clockMs: 60000 });
    expect(r.value.moves[1]).toEqual({ text: 'a4a3', engine: { scoreCp: 12, depth: 7, timeMs: 1500 } });
    const text = exportGame({
      edition: 'khet2',
      startKfen: CLASSIC,
      players: ['Human (Silver)', 'Human (Red)'],
      result: '*',
      timeControl: '60+1',
      termination: 'unterminated',
      tags: r.value.tags,
      moves: [
        { text: 'c1d2', side: 0, comment: 'a quiet start', clocks: [60000, 60000] },
        { text: 'a4a3', side: 1, engine: { scoreCp: 12, depth: 7, timeMs: 1500 }, clocks: [60000, 58200] },
      ],
    });
    // An older record's colour tags name the players under White and Black.
    for (const tag of ['[Event "Club night"]', '[White "Alice"]', '[Black "Bob"]', '[Annotator "Carol"]'])
      expect(text).toContain(tag);
    expect(text).toContain('1. c1d2 {[%clk 0:01:00] a quiet start} a4a3 {+0.12/7 1.500s [%clk 0:00:58]} *');
  });

  it("keeps an imported move's arrows and marked squares (lichess's [%cal] and [%csl]) through export", () => {
    const r = importGame('[Variant "khet2"]\n\n1. c1d2 {a plan [%csl Re1] [%cal Gj1j8]} a4a3 {[%cal Ra8a1]} *\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.moves[0].comment).toBe('a plan [%csl Re1] [%cal Gj1j8]');
    expect(r.value.moves[1].comment).toBe('[%cal Ra8a1]');
    const text = exportGame({
      edition: 'khet2',
      startKfen: CLASSIC,
      players: ['A', 'B'],
      result: '*',
      timeControl: '-',
      termination: 'unterminated',
      moves: r.value.moves.map((m, i) => ({ text: m.text, side: i % 2, comment: m.comment })),
    });
    expect(text).toContain('1. c1d2 {a plan [%csl Re1] [%cal Gj1j8]} a4a3 {[%cal Ra8a1]} *');
  });

  it('names Deflexion players Gold and Silver', () => {
    const kfen = setupKfen('deflexion', 'classic') as string;
    const text = exportGame({
      edition: 'deflexion',
      startKfen: kfen,
      players: ['A', 'B'],
      result: '1-0',
      timeControl: '-',
      termination: 'normal',
      moves: [],
    });
    expect(text).toContain('[White "A"]');
    expect(text).toContain('[Black "B"]');
    expect(importGame(text)).toMatchObject({ ok: true, value: { edition: 'deflexion', result: '1-0' } });
  });

  it('reads bare moves and reports illegal ones', () => {
    expect(importGame('1. c1d2 a4a3')).toMatchObject({
      ok: true,
      value: { moves: [{ text: 'c1d2' }, { text: 'a4a3' }], result: '*' },
    });
    const bad = importGame('[Variant "khet2"]\n\n1. c1d2 c1d2 *');
    expect(bad).toMatchObject({ ok: false, error: { kind: 'replay', error: { kind: 'move', ply: 1, move: 'c1d2' } } });
    if (!bad.ok) expect(formatImportError(bad.error)).toMatch(/^move 2 \(c1d2\): /);
    const chess = importGame('[Variant "chess"]\n\n*');
    expect(chess).toEqual({ ok: false, error: { kind: 'variant', variant: 'chess' } });
    if (!chess.ok) expect(formatImportError(chess.error)).toBe("unknown variant 'chess'");
    expect(importGame('')).toEqual({ ok: false, error: { kind: 'no game' } });
  });
});

describe('an imported game in the page', () => {
  it('becomes a tree with its comments and clocks, keeps its result and tags, and is exported again with them', () => {
    const r = importGame(
      '[Event "Club night"]\n[Silver "Alice"]\n[Red "Bob"]\n[Variant "khet2"]\n[TimeControl "60+1"]\n[Termination "normal"]\n\n' +
        '1. c1d2 {[%clk 0:01:00] a quiet start} a4a3 {[%clk 0:00:55]} {Red wins on time} 0-1\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = importedTree(r.value);
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    expect(mainline(t.value.tree).map((n) => [n.ply.text, n.comment, n.clocks])).toEqual([
      ['c1d2', 'a quiet start', [60000, 60000]],
      ['a4a3', undefined, [60000, 55000]],
    ]);
    const base = { ...S.initialState({ ...S.DEFAULT_SETTINGS, tc: '60+1' }, () => 0), mode: 'humans' as const };
    const s = loadImported(base, r.value, t.value, 0);
    expect(S.gameResult(s)).toMatchObject({ result: '0-1' });
    expect(s.clock?.remaining).toEqual([60000, 55000]);
    expect(s.clock?.running).toBe(-1); // the game is over
    const text = exportGame(exportInput(s, 'Thoth'));
    for (const tag of ['[Event "Club night"]', '[White "Alice"]', '[Black "Bob"]', '[Result "0-1"]'])
      expect(text).toContain(tag);
    expect(text).not.toContain('[Silver "Alice"]');
    expect(text).toMatch(
      /1\. c1d2 \{\[%clk 0:01:00\] a quiet start\} a4a3 \{\[%clk 0:00:55\]\} \{Red wins on time\}\s+0-1/,
    );
  });
});

describe('a position to play on', () => {
  it('needs both Pharaohs, as the engine does', () => {
    expect(newTree('khet2', 'xv9/10/10/10/10/10/4K5/9X^ s 0 1')).toEqual({
      ok: false,
      error: 'no Red Pharaoh: a position for play needs both',
    });
    expect(newTree('khet2', 'xv9/4k5/10/10/10/10/10/9X^ s 0 1')).toMatchObject({ ok: false });
    expect(newTree('khet2', 'xv9/4k5/10/10/10/10/4K5/9X^ s 0 1')).toMatchObject({ ok: true });
    const r = importGame('[Variant "khet2"]\n[SetUp "1"]\n[FEN "xv9/10/10/10/10/10/4K5/9X^ s 0 1"]\n\n*\n');
    expect(r.ok && importedTree(r.value)).toEqual({
      ok: false,
      error: 'no Red Pharaoh: a position for play needs both',
    });
  });
});

describe('a record imported over a game against Thoth', () => {
  it('opens on the analysis board: no live game, no clock running, the board and its players as they were', () => {
    const r = importGame(
      '[White "Ann"]\n[Black "Bo"]\n[TimeControl "300+3"]\n[Variant "khet2"]\n\n1. c1d2 {[%clk 0:04:58]} a5a6 {[%clk 0:04:51]} *\n',
    );
    if (!r.ok) throw new Error('import');
    const t = importedTree(r.value);
    if (!t.ok) throw new Error(t.error);
    const playing = S.initialState({ ...S.DEFAULT_SETTINGS, side: '1', tc: '60+1' }, () => 0);
    expect([playing.mode, playing.humanSide, playing.flipped]).toEqual(['engine', 1, true]);
    const s = loadImported(playing, r.value, t.value, 1000);
    expect(s.mode).toBe('analysis');
    expect(s.clock?.running).toBe(-1);
    // the record's clocks, standing still, for the person who plays on from here
    expect(s.clock?.remaining).toEqual([298000, 291000]);
    expect([s.humanSide, s.flipped, s.players]).toEqual([1, true, null]);
    expect(s.tags).toContainEqual(['White', 'Ann']);
    expect(exportGame(exportInput(s, 'Thoth'))).toMatch(
      /\[White "Ann"\][^]*\[Black "Bo"\][^]*\[TimeControl "300\+3"\]/,
    );
    // Play Thoth picked afterwards: the person takes the side to move, the clocks go on from there.
    const on = S.playFromHere(s, 2000);
    expect([on.mode, on.humanSide, on.clock?.running]).toEqual(['engine', 0, 0]);
    // A record without a time control gets none from the page's settings, and writes none.
    const bare = importGame('[White "Ann"]\n[Black "Bo"]\n\n1. c1d2 a5a6 *\n');
    if (!bare.ok) throw new Error('import');
    const bt = importedTree(bare.value);
    if (!bt.ok) throw new Error(bt.error);
    const b = loadImported(playing, bare.value, bt.value, 1000);
    expect(b.clock).toBeNull();
    expect(exportGame(exportInput(b, 'Thoth'))).toContain('[TimeControl "-"]');
  });
});

describe('variations and NAGs of a record', () => {
  it('become the move tree, and are written back', () => {
    const r = importGame(
      '[Variant "khet2"]\n\n1. c1d2 $1 (1. j4i4?? {loses a Pyramid} 1... a4a3) 1... a4a3 (1... h4h3 2. d2d3 (2. d2c1)) 2. d2d3 *\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = importedTree(r.value);
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    const tree = t.value.tree;
    expect(mainline(tree).map((n) => n.ply.text)).toEqual(['c1d2', 'a4a3', 'd2d3']);
    expect(mainline(tree)[0].nags).toEqual([1]);
    expect(tree.children.map((n) => n.ply.text)).toEqual(['c1d2', 'j4i4']);
    expect(tree.children[1]).toMatchObject({ nags: [4], comment: 'loses a Pyramid' });
    expect(tree.children[0].children.map((n) => n.ply.text)).toEqual(['a4a3', 'h4h3']);
    expect(tree.children[0].children[1].children.map((n) => n.ply.text)).toEqual(['d2d3', 'd2c1']);
    const base = { ...S.initialState({ ...S.DEFAULT_SETTINGS, tc: '' }, () => 0), mode: 'analysis' as const };
    const text = exportGame(exportInput(loadImported(base, r.value, t.value, 0), 'Thoth'));
    expect(text.replace(/\s+/g, ' ')).toContain(
      '1. c1d2 $1 (1. j4i4 $4 {loses a Pyramid} a4a3) 1... a4a3 (1... h4h3 2. d2d3 (2. d2c1)) 2. d2d3 *',
    );
    // Read back, the same tree.
    const again = importGame(text);
    const t2 = again.ok ? importedTree(again.value) : null;
    expect(t2?.ok && mainline(t2.value.tree).map((n) => n.ply.text)).toEqual(['c1d2', 'a4a3', 'd2d3']);
  });
});

describe("the page's modules", () => {
  it('import each other without a cycle, type-only imports included', () => {
    const dir = fileURLToPath(new URL('../../src/gui/page/', import.meta.url));
    const re = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.\.?\/[^'"]+)['"]/g;
    const imports = new Map<string, string[]>();
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.ts'));
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      imports.set(
        f,
        [...text.matchAll(re)]
          .map((m) => path.relative(dir, path.resolve(dir, path.dirname(f), `${m[1]}.ts`)))
          .filter((g) => !g.startsWith('..')),
      );
    }
    expect(imports.get(path.join('state', 'gamereview.ts'))).toContain(path.join('state', 'state.ts')); // the walker sees imports
    const cycles: string[] = [];
    const done = new Set<string>();
    const visit = (f: string, stack: string[]): void => {
      if (stack.includes(f)) return void cycles.push([...stack.slice(stack.indexOf(f)), f].join(' → '));
      if (done.has(f)) return;
      for (const g of imports.get(f) ?? []) visit(g, [...stack, f]);
      done.add(f);
    };
    for (const f of imports.keys()) visit(f, []);
    expect(cycles).toEqual([]);
  });
});
