/** The page's logic that needs no browser: engine lines, the game model, records. */
import { describe, expect, it } from 'vitest';
import { KILL, setupKfen, squareName } from '../../src/core/index';
import { parseOption, pvInfo } from '../../src/gui/page/engine';
import { Game } from '../../src/gui/page/game';
import { exportGame, formatImportError, importGame } from '../../src/gui/page/record';

const CLASSIC = setupKfen('khet2', 'classic') as string;

describe('engine lines', () => {
  it('shows info lines with a depth, a score and moves', () => {
    expect(pvInfo('info depth 12 seldepth 18 multipv 2 score cp -35 upperbound nodes 123456 nps 1000000 hashfull 12 time 123 pv c1b2 j5i4 c4+')).toEqual({
      depth: 12, seldepth: 18, multipv: 2, score: { kind: 'cp', value: -35 }, bound: 'upper', nodes: 123456, nps: 1000000, hashfull: 12, time: 123, pv: ['c1b2', 'j5i4', 'c4+'],
    });
    expect(pvInfo('info depth 3 score mate -2 pv a8+')).toMatchObject({ depth: 3, multipv: 1, score: { kind: 'mate', value: -2 }, pv: ['a8+'] });
    expect(pvInfo('info string hello pv x')).toBeNull();
    expect(pvInfo('info depth 5 currmove c1b2 currmovenumber 3')).toBeNull();
    expect(pvInfo('info depth 5 score cp 3 pv')).toBeNull();
    expect(pvInfo('bestmove c1b2')).toBeNull();
  });

  it('parses option lines', () => {
    expect(parseOption('option name Move Overhead type spin default 10 min 0 max 5000')).toEqual({
      name: 'Move Overhead', type: 'spin', default: '10', min: 0, max: 5000, vars: [],
    });
    expect(parseOption('option name UCI_Variant type combo default khet2 var khet2 var khet1 var deflexion')?.vars).toEqual(['khet2', 'khet1', 'deflexion']);
    expect(parseOption('id name Thoth')).toBeNull();
  });
});

describe('the game model', () => {
  it('records the beam of each move, with the removed piece', () => {
    const g = new Game('khet2', CLASSIC);
    // Silver's j4i3 sends the beam j1 j2 j3 j4... and removes a piece (rulebook §7.2: j4i3x).
    const p = g.playText('j4i3');
    expect(p.side).toBe(0);
    expect(p.killedSq).toBeGreaterThanOrEqual(0);
    const last = p.beam.steps[p.beam.steps.length - 1];
    expect(last.out).toBe(KILL);
    expect(squareName(last.square)).toBe(squareName(p.killedSq));
    expect(p.beam.steps[0].square).toBe(9); // from the Sphinx on j1
    expect(g.positionAt(1).board[p.killedSq]).toBe(0);
    expect(g.positionCommand(1)).toBe(`position kfen ${CLASSIC} moves j4i3`);
    g.truncate(0);
    expect(g.length).toBe(0);
  });

  it('knows when a Pharaoh hit ends the game', () => {
    const g = new Game('khet2', 'xv9/4k4Pv/10/10/10/10/4K5/9X< s 0 1');
    g.playText('j1+');
    expect(g.over).toBe(true);
    expect(g.result()).toMatchObject({ result: '1-0', termination: 'normal' });
  });

  it('traces fixed lasers from the board edge (Khet 1.0)', () => {
    const g = new Game('khet1', setupKfen('khet1', 'classic') as string);
    const p = g.playText('c1b2');
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
      moves: [{ move: 'c1d2' }, { move: 'a4a3', scoreCp: 12, depth: 7, timeMs: 1500 }, { move: 'j5-' }],
    });
    expect(text).toContain('[White "Human"]');
    expect(text).toContain('[Black "Thoth 0.1.0"]');
    expect(text).toContain('[Termination "unterminated"]');
    expect(text).toContain('1. c1d2 a4a3 {+0.12/7 1.500s} 2. j5- *');
    const r = importGame(text);
    expect(r).toMatchObject({ ok: true, value: { edition: 'khet2', startKfen: CLASSIC, moves: ['c1d2', 'a4a3', 'j5-'], result: '*' } });
  });

  it('names Deflexion players Gold and Silver', () => {
    const kfen = setupKfen('deflexion', 'classic') as string;
    const text = exportGame({
      edition: 'deflexion', startKfen: kfen, players: ['A', 'B'], result: '1-0', timeControl: '-', termination: 'normal', moves: [],
    });
    expect(text).toContain('[White "A"]');
    expect(text).toContain('[Black "B"]');
    expect(importGame(text)).toMatchObject({ ok: true, value: { edition: 'deflexion', result: '1-0' } });
  });

  it('reads bare moves and reports illegal ones', () => {
    expect(importGame('1. c1d2 a4a3')).toMatchObject({ ok: true, value: { moves: ['c1d2', 'a4a3'], result: '*' } });
    const bad = importGame('[Variant "khet2"]\n\n1. c1d2 c1d2 *');
    expect(bad).toMatchObject({ ok: false, error: { kind: 'replay', error: { kind: 'move', ply: 1, move: 'c1d2' } } });
    if (!bad.ok) expect(formatImportError(bad.error)).toMatch(/^move 2 \(c1d2\): /);
    const chess = importGame('[Variant "chess"]\n\n*');
    expect(chess).toEqual({ ok: false, error: { kind: 'variant', variant: 'chess' } });
    if (!chess.ok) expect(formatImportError(chess.error)).toBe("unknown variant 'chess'");
    expect(importGame('')).toEqual({ ok: false, error: { kind: 'no game' } });
  });
});
