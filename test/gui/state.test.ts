/** The page's state and its transitions, without a browser: clocks, the shot on show, game life, analysis. */
import { describe, expect, it } from 'vitest';
import { parseMove, setupKfen, type Position } from '../../src/core/index';
import {
  clockAfterMove,
  clockText,
  newClock,
  parsePgnClock,
  pgnClock,
  startClock,
  timeLeft,
} from '../../src/gui/page/state/clock';
import type { InfoLine } from '../../src/core/info';
import { keyAction } from '../../src/gui/page/view/keys';
import { lineEvals } from '../../src/gui/page/view/analysis-card';
import { chanceText, evalText, lineWdl, winText } from '../../src/gui/page/state/evaluation';
import { pvInfo } from '../../src/core/info';
import { levelGoCommand, levelsFor, thothPlayerName } from '../../src/gui/page/engine/levels';
import { restoreGame, restoreSettings, saveGame } from '../../src/gui/page/state/persist';
import { rotationsOf } from '../../src/gui/page/state/selection';
import * as S from '../../src/gui/page/state/state';
import { addMoves, mainline, newTree, nodeAt, positionAt } from '../../src/gui/page/state/tree';

const CLASSIC = setupKfen('khet2', 'classic') as string;

function state(change: Partial<S.PageState> = {}, settings: Partial<S.Settings> = {}): S.PageState {
  const s = S.initialState({ ...S.DEFAULT_SETTINGS, ...settings }, () => 0);
  return { ...s, engineAvailable: true, ...change };
}

const move = (pos: Position, text: string): number => {
  const m = parseMove(pos, text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

/** Plays move texts at the shown position. */
function play(s: S.PageState, texts: string[], now = 0): S.PageState {
  for (const t of texts) s = S.playMove(s, move(S.viewPosition(s), t), now);
  return s;
}

const texts = (s: S.PageState): string[] => mainline(s.tree).map((n) => n.ply.text);
const info = (multipv: number, pv: string[], cp = 10, depth = 5): InfoLine => ({
  depth,
  multipv,
  score: { kind: 'cp', value: cp },
  pv,
});

describe('clocks', () => {
  it('run, add the increment and read as a clock does', () => {
    let c = newClock(60000, 1000);
    c = startClock(c, 1, 0);
    expect(timeLeft(c, 1, 2500)).toBe(57500);
    c = clockAfterMove(c, 1, 2500, false);
    expect(c.remaining[1]).toBe(58500);
    expect(c.running).toBe(0);
    expect(clockText(58500)).toBe('0:59');
    expect(clockText(9400)).toBe('9.4');
    expect(pgnClock(3723000)).toBe('1:02:03');
    expect(parsePgnClock('0:04:32')).toBe(272000);
  });
});

describe('playing against Thoth', () => {
  it("holds Thoth's fast reply while the person's shot is on show, with Thoth's clock stopped", () => {
    let s = state({}, { tc: '60+1' });
    s = play(s, ['j4i4'], 1000);
    expect(s.holdUntil).toBe(1000 + S.SHOT_HOLD_MS);
    s = S.engineMoved(s, 'a4a3', { depth: 1 }, 1050);
    expect(texts(s)).toEqual(['j4i4']);
    expect(s.pendingReply).not.toBeNull();
    expect(s.clock?.running).toBe(-1);
    expect(S.humanMayMove(s)).toBe(false);
    s = S.showPendingReply(s, 1900);
    expect(texts(s)).toEqual(['j4i4', 'a4a3']);
    expect(s.clock?.running).toBe(0);
    // Red thought 50 ms and got its increment.
    expect(s.clock?.remaining[1]).toBe(60000 - 50 + 1000);
    expect(S.humanMayMove(s)).toBe(true);
  });

  it('counts the hold from when the shot is drawn, not from when the move was made', () => {
    let s = play(state(), ['j4i4'], 1000);
    // The page took 150 ms to draw the move: the shot is on show for the whole hold after that.
    s = S.holdFrom(s, 1150);
    expect(s.holdUntil).toBe(1150 + S.SHOT_HOLD_MS);
    s = S.engineMoved(s, 'a4a3', {}, 1900);
    expect(texts(s)).toEqual(['j4i4']);
    // A reply already waiting keeps its hold; nothing held: nothing to move.
    expect(S.holdFrom(s, 1940).holdUntil).toBe(1150 + S.SHOT_HOLD_MS);
    expect(S.holdFrom(state(), 5000).holdUntil).toBe(0);
  });

  it('plays a slow reply at once', () => {
    let s = play(state(), ['j4i4'], 0);
    s = S.engineMoved(s, 'a4a3', {}, 5000);
    expect(texts(s)).toEqual(['j4i4', 'a4a3']);
  });

  it("takes back to the person's turn with the clocks as they were, and not after the end", () => {
    let s = state({}, { tc: '60+1' });
    s = play(s, ['c1d2'], 0);
    s = S.engineMoved(s, 'a4a3', {}, 5000);
    s = play(s, ['d2d3'], 9000);
    s = S.engineMoved(s, 'a3a4', {}, 20000);
    const before = nodeAt(s.tree, [0, 0])!.clocks!;
    s = S.takeBack(s, 30000);
    expect(texts(s)).toEqual(['c1d2', 'a4a3']);
    expect(s.clock?.remaining).toEqual(before);
    expect(s.clock?.running).toBe(0);
    // Back to the start: fresh clocks, not running.
    s = S.takeBack(s, 31000);
    expect(texts(s)).toEqual([]);
    expect(s.clock?.remaining).toEqual([60000, 60000]);
    expect(s.clock?.running).toBe(-1);
    // A loss on time cannot be taken back.
    s = play(s, ['c1d2'], 40000);
    s = S.checkFlag(s, 40000 + 62000);
    expect(S.gameResult(s)?.termination).toBe('time forfeit');
    const t = S.takeBack(s, 200000);
    expect(texts(t)).toEqual(['c1d2']);
    expect(t.message).toMatch(/game is over/);
  });

  it('stops the clocks while Thoth is not available (another tab has it), and starts them again', () => {
    let s = play(state({}, { tc: '60+1' }), ['c1d2'], 0);
    s = S.engineMoved(s, 'a4a3', {}, 1000);
    expect(s.clock?.running).toBe(0);
    s = S.setEngineAvailable(s, false, 3000);
    expect(s.clock?.running).toBe(-1);
    expect(S.humanMayMove(s)).toBe(false);
    s = S.setEngineAvailable(s, true, 60000);
    expect(s.clock?.running).toBe(0);
    expect(timeLeft(s.clock!, 0, 60000)).toBe(61000 - 2000);
  });

  it("changes the person's side only with the next game once moves are made", () => {
    let s = play(state(), ['c1d2']);
    s = S.chooseSide(s, '1');
    expect(s.humanSide).toBe(0);
    // the form's note says it comes with New game; the hint keeps saying whose move it is
    expect(s.message).toBe('');
    s = S.newGameFromSettings(s, 0);
    expect(s.humanSide).toBe(1);
    expect(S.chooseSide(s, '0').humanSide).toBe(1); // no move yet: still only with New game
  });

  it('resigns, and Thoth answers a draw offer by its evaluation', () => {
    const s = play(state(), ['c1d2']);
    expect(S.gameResult(S.resign(s, 0))).toMatchObject({ result: '0-1', text: 'Red wins: Silver resigned' });
    const offered = S.offerDraw(s);
    expect(offered.drawOffer).toEqual({ by: 0, atPly: 1 });
    expect(S.gameResult(S.engineMoved(offered, 'a4a3', { scoreCp: -20 }, 0))?.result).toBe('1/2-1/2');
    const declined = S.engineMoved(offered, 'a4a3', { scoreCp: 80 }, 5000);
    expect(S.isOver(declined)).toBe(false);
    expect(texts(declined)).toEqual(['c1d2', 'a4a3']);
    expect(declined.message).toBe('Thoth declines the draw.');
  });

  it('lets the side to move claim a draw its move would reach by repetition', () => {
    let s = state({ mode: 'humans' });
    s = play(s, ['c1d2', 'a4a3', 'd2c1', 'a3a4', 'c1d2', 'a4a3', 'd2c1']);
    expect(S.drawClaim(S.endPosition(s))).toMatchObject({ move: 'a3a4' });
    s = S.claimDraw(s, 0);
    expect(S.gameResult(s)).toMatchObject({ result: '1/2-1/2' });
    expect(S.gameResult(s)?.text).toMatch(/Red.*third time/);
    expect(S.drawClaim(S.endPosition(play(state({ mode: 'humans' }), ['c1d2'])))).toBeNull();
  });

  it('between two players, a draw offer lapses when the other side moves on', () => {
    let s = play(state({ mode: 'humans' }), ['c1d2']);
    s = S.offerDraw(s);
    expect(s.drawOffer?.by).toBe(1);
    expect(S.gameResult(S.acceptDraw(s, 0))?.text).toBe('Draw by agreement');
    s = play(s, ['a4a3']);
    expect(s.drawOffer).not.toBeNull(); // Red offered and moved: it stands for Silver
    s = play(s, ['d2d3']);
    expect(s.drawOffer).toBeNull();
  });
});

describe('the board', () => {
  it('offers the Sphinx only the turn it has (on j1 facing north: counter-clockwise)', () => {
    const s = state({ mode: 'humans' });
    const pos = S.viewPosition(s);
    const r = rotationsOf(pos, 9);
    expect(r.cw).toBe(-1);
    expect(r.ccw).toBeGreaterThanOrEqual(0);
    const turned = S.rotateSelected(S.select(s, 9), '-', 0);
    expect(texts(turned)).toEqual(['j1-']);
  });

  it("previews the aimed move's shot", () => {
    let s = state({ mode: 'humans' });
    s = S.select(s, 39); // j4
    s = S.aimAt(s, 38); // i4
    const shot = S.aimedShot(s);
    expect(shot?.text).toBe('j4i4');
    expect(shot?.killedSq).toBeGreaterThanOrEqual(0);
    expect(S.aimedShot(S.aimAt(s, 0))).toBeNull();
  });

  it('under Confirm moves, a dropped piece shows its shot and waits for the confirming tap', () => {
    const s = state({ mode: 'humans' });
    // j4 dragged to i4: armed (its shot shown), not played
    const dropped = S.dropPiece(s, 39, 38, 0, true);
    expect(texts(dropped)).toEqual([]);
    expect([dropped.selected, dropped.armed]).toEqual([39, 38]);
    expect(S.aimedShot(dropped)?.text).toBe('j4i4');
    // the tap on the square plays it; so does a second drop there
    expect(texts(S.clickSquare(dropped, 38, 0, 39, true))).toEqual(['j4i4']);
    expect(texts(S.dropPiece(dropped, 39, 38, 0, true))).toEqual(['j4i4']);
    // without Confirm moves the drop plays at once
    expect(texts(S.dropPiece(s, 39, 38, 0))).toEqual(['j4i4']);
  });
});

describe('the game form', () => {
  it('knows a board of its own start from a setup, and a Setup picked over it for New game', () => {
    const s = state();
    expect(S.customStart(s)).toBe(false);
    const t = newTree('khet2', 'xv9/4k5/10/10/1P^1P^1P^4/10/4K5/9X^ s 0 1');
    if (!t.ok) throw new Error(t.error);
    const custom = S.newGame(s, t.value, { now: 0 });
    expect([S.customStart(custom), custom.setupChosen]).toEqual([true, false]);
    const picked = S.chooseSetup(custom, 'imhotep');
    expect([picked.settings.setup, picked.setupChosen]).toEqual(['imhotep', true]);
    const next = S.newGameFromSettings(picked, 0);
    expect([S.customStart(next), next.setupChosen]).toEqual([false, false]);
  });
});

describe('analysis', () => {
  it('keeps the main line when a move is played after stepping back: a variation', () => {
    let s = play(state({ mode: 'analysis' }), ['c1d2', 'a4a3', 'd2d3']);
    s = S.step(S.step(s, -1), -1);
    s = play(s, ['h4h3']);
    expect(texts(s)).toEqual(['c1d2', 'a4a3', 'd2d3']);
    expect(s.path).toEqual([0, 1]);
    expect(nodeAt(s.tree, s.path)?.ply.text).toBe('h4h3');
    // The same move again follows the existing node.
    const again = play(S.step(s, -1), ['a4a3']);
    expect(again.path).toEqual([0, 0]);
    const promoted = S.promoteLine(s);
    expect(texts(promoted)).toEqual(['c1d2', 'h4h3']);
    expect(texts(S.deleteFromHere(s))).toEqual(['c1d2', 'a4a3', 'd2d3']);
  });

  it('keeps the lines when the number of lines changes, and freezes a previewed line', () => {
    let s = state({ mode: 'analysis' });
    const key = S.linesKey(s);
    for (let i = 1; i <= 3; i++) s = S.analysisLine(s, key, info(i, ['c1d2', 'a4a3']));
    s = S.setSettings(S.setAnalysing(s, false), { multipv: 2 });
    expect(S.shownLines(s)).toHaveLength(2);
    s = S.setSettings(s, { multipv: 3 });
    expect(S.shownLines(s)).toHaveLength(3);
    s = S.startPreview(s, 0);
    s = S.analysisLine(s, key, info(1, ['j4i4', 'a8+', 'j1-'], 50, 9));
    expect(s.preview?.pv).toEqual(['c1d2', 'a4a3']);
    expect(s.evals['']).toEqual({ kind: 'cp', value: 50, depth: 9 });
    expect(S.analysisLine(s, 'elsewhere', info(1, ['c1c2']))).toBe(s);
  });

  it("gives the explorer each line's first move with the line's score, as the lines write it", () => {
    // Red to move: the lines' scores are Red's, written from Silver's side.
    let s = play(state({ mode: 'analysis' }), ['c1d2']);
    const key = S.linesKey(s);
    s = S.setSettings(s, { multipv: 3 });
    s = S.analysisLine(s, key, info(1, ['a4a3', 'j4i4'], 30));
    s = S.analysisLine(s, key, info(2, ['h4h3'], -20));
    s = S.analysisLine(s, key, info(3, ['a4a3', 'c2c3'], 5));
    const evals = lineEvals(s);
    expect([...evals.keys()]).toEqual(['a4a3', 'h4h3']);
    expect(evals.get('a4a3')).toBe(evalText({ kind: 'cp', value: -30 }));
    expect(evals.get('h4h3')).toBe(evalText({ kind: 'cp', value: 20 }));
    expect(lineEvals(S.step(s, -1)).size).toBe(0);
  });
});

describe('win chance', () => {
  it("reads an info line's wdl into the first player's win, draw and loss per cent", () => {
    const l = pvInfo('info depth 9 multipv 1 score cp 120 wdl 612 243 145 nodes 5 pv c1d2');
    expect(l?.wdl).toEqual([612, 243, 145]);
    // Silver to move: the engine's view is the first player's
    expect(lineWdl(l?.wdl, 0)).toEqual([61, 24, 15]);
    expect(chanceText(l!, 0)).toBe('61/24/15');
    // Red to move: its win is the first player's loss
    expect(lineWdl(l?.wdl, 1)).toEqual([15, 24, 61]);
    expect(chanceText(l!, 1)).toBe('15/24/61');
    // rounded win and loss, the draw the rest: they add up to 100
    expect(lineWdl([335, 330, 335], 0)).toEqual([34, 32, 34]);
    expect(lineWdl([1000, 0, 0], 1)).toEqual([0, 0, 100]);
    expect(lineWdl(undefined, 0)).toBeNull();
    expect(lineWdl([0, 0, 0], 0)).toBeNull();
  });

  it("falls back to the eval bar's fitted curve for an engine that gives no wdl", () => {
    const l = pvInfo('info depth 9 multipv 1 score cp 120 pv c1d2')!;
    expect(l.wdl).toBeUndefined();
    expect(chanceText(l, 0)).toBe(winText(1 / (1 + Math.exp(-0.0028 * 120))));
    expect(chanceText(l, 0)).toBe('58%');
    expect(chanceText(l, 1)).toBe('42%');
    expect(chanceText({ score: { kind: 'mate', value: 2 } }, 1)).toBe('0%');
    expect(chanceText({ score: { kind: 'cp', value: 0 } }, 0)).toBe('50%');
  });

  it('keeps the choice of score or win chance with the settings', () => {
    expect(restoreSettings({ showWin: true }).showWin).toBe(true);
    expect(restoreSettings({ showWin: 'yes' }).showWin).toBeUndefined();
  });
});

describe('what survives a reload', () => {
  it('saves and restores the game tree, clocks and mode; refuses an illegal saved move', () => {
    let s = play(state({ mode: 'analysis' }), ['c1d2', 'a4a3']);
    s = play(S.step(s, -1), ['h4h3']);
    s = S.setMode(s, 'humans', 0);
    const saved = JSON.parse(JSON.stringify(saveGame(s, 0)));
    const r = restoreGame(state(), saved, 0);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.mode).toBe('humans');
    expect(texts(r.value)).toEqual(['c1d2', 'a4a3']);
    expect(nodeAt(r.value.tree, [0, 1])?.ply.text).toBe('h4h3');
    saved.moves[0].m = 'c1c1';
    expect(restoreGame(state(), saved, 0)).toMatchObject({ ok: false });
    expect(restoreSettings({ level: 99, tc: 'x', edition: 'deflexion', showLasers: true })).toMatchObject({
      level: S.DEFAULT_SETTINGS.level,
      tc: '300+3',
      edition: 'deflexion',
      showLasers: true,
    });
  });
});

describe('levels and keys', () => {
  it('names eight levels, Elo ones when the engine has UCI_Elo', () => {
    const elo = levelsFor({ min: 956, max: 2400 });
    expect(elo.map((l) => l.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(elo[0].label).toBe('Level 1 · Elo 960');
    expect(elo[7].label).toBe('Level 8 · full strength (Elo 2400)');
    expect(elo[7].elo).toBeUndefined();
    expect(levelsFor(null)[2]).toMatchObject({ label: 'Level 3 · depth 3', depth: 3 });
    expect(levelGoCommand(elo[7], { left: [1000, 2000], incMs: 500 })).toBe(
      'go wtime 1000 btime 2000 winc 500 binc 500',
    );
    expect(levelGoCommand(levelsFor(null)[0], null)).toBe('go depth 1');
  });

  it('names Thoth in a record with its level, in one pair of parentheses', () => {
    const elo = levelsFor({ min: 808, max: 2400 }, 'Thoth 0.1.0');
    expect(thothPlayerName('Thoth 0.1.0', elo[7])).toBe('Thoth 0.1.0 (Level 8 · full strength · Elo 2400)');
    expect(thothPlayerName('Thoth 0.1.0', elo[2])).toBe('Thoth 0.1.0 (Level 3 · Elo 1131)');
    expect(thothPlayerName('', levelsFor(null)[1])).toBe('Thoth (Level 2 · depth 2)');
    for (const l of [...elo, ...levelsFor(null)])
      expect(thothPlayerName('Thoth 0.1.0', l)).toMatch(/^[^()]*\([^()]*\)$/);
  });

  it('maps keys by where they are pressed', () => {
    const k = { modifier: false, onBoard: false, inField: false, onButton: false };
    expect(keyAction({ ...k, key: 'ArrowLeft' })).toBe('prev');
    expect(keyAction({ ...k, key: 'ArrowLeft', onBoard: true })).toBe('cursor-left');
    expect(keyAction({ ...k, key: 'Enter', onButton: true })).toBeNull();
    expect(keyAction({ ...k, key: 't', inField: true })).toBeNull();
  });
});

describe('the game tree', () => {
  it('replays imported lines and reports the illegal move', () => {
    const s = state();
    const r = addMoves(s.tree, [], ['c1d2', 'a4a3']);
    expect(r.ok && positionAt(r.value.tree, r.value.path).ply).toBe(2);
    expect(addMoves(s.tree, [], ['c1d2', 'c1d2'])).toMatchObject({ ok: false, error: { index: 1 } });
    expect(CLASSIC).toContain('/');
  });
});

describe('modes and the clocks', () => {
  it('a game keeps its clocks through analysis (standing still) and back; the move where analysis was opened is noted', () => {
    let s = state({}, { tc: '60+1' });
    s = play(s, ['j4i4'], 0);
    s = S.engineMoved(s, 'a4a3', {}, 2000);
    expect(texts(s)).toEqual(['j4i4', 'a4a3']);
    const left = timeLeft(s.clock!, 0, 12000);
    s = S.analyseDuringGame(s, 12000);
    expect(s.mode).toBe('analysis');
    expect(s.clock?.running).toBe(-1);
    expect(nodeAt(s.tree, [0, 0])?.comment).toBe(S.ANALYSED_NOTE);
    s = S.setMode(s, 'engine', 50000);
    expect(timeLeft(s.clock!, 0, 50000)).toBe(left);
    expect(s.clock?.running).toBe(0);
    // Saved and restored in analysis, the clocks are kept too.
    const back = restoreGame(state(), saveGame(S.setMode(s, 'analysis', 51000), 51000), 99000);
    expect(back.ok && timeLeft(back.value.clock!, 0, 99000)).toBe(left - 1000);
  });
});
