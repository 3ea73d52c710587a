/**
 * The board editor's pure part (src/gui/page/state/editor.ts), without a browser: placing, turning,
 * stacking, moving and removing pieces; the side to move; refusing a board with problems; and the
 * three ways out (Analyse, Play from here against Thoth, Continue this game from here) and Cancel.
 */
import { describe, expect, it } from 'vitest';
import {
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SPHINX,
  STACK,
  kindOf,
  makePiece,
  oriOf,
  parseMove,
  parseSquare,
  setupKfen,
} from '../../src/core/index';
import * as E from '../../src/gui/page/state/editor';
import * as S from '../../src/gui/page/state/state';
import { timeLeft } from '../../src/gui/page/state/clock';
import { mainline } from '../../src/gui/page/state/tree';
import { clickSquare, dropPiece, rotateSelected } from '../../src/gui/page/state/board-input';

const sq = parseSquare;
const state = (settings: Partial<S.Settings> = {}): S.PageState => ({
  ...S.initialState({ ...S.DEFAULT_SETTINGS, ...settings }, () => 0),
  engineAvailable: true,
});
const ed = (s: S.PageState): E.EditorState => {
  if (!s.editor) throw new Error('the editor is closed');
  return s.editor;
};
const play = (s: S.PageState, text: string, now: number): S.PageState => {
  const m = parseMove(S.viewPosition(s), text);
  if (!m.ok) throw new Error(m.error.message);
  return S.playMove(s, m.value, now);
};
/** An empty Khet 2.0 board with both Pharaohs placed: a position to play from. */
function minimal(): S.PageState {
  let s = E.openEditor(state(), 0);
  s = E.editorStartFrom(s, { kind: 'empty', edition: 'khet2' });
  s = E.editorTool(s, { kind: 'piece', color: 0, piece: PHARAOH });
  s = E.editorClick(s, sq('e1'));
  s = E.editorTool(s, { kind: 'piece', color: 1, piece: PHARAOH });
  return E.editorClick(s, sq('f8'));
}

describe('the board editor', () => {
  it('opens on the position shown, stops the clocks and the game; Cancel brings it back as it was', () => {
    let s = state();
    s = play(s, 'j1-', 1000);
    const clockBefore = s.clock;
    const open = E.openEditor(s, 5000);
    expect(ed(open).board).toEqual(Array.from(S.viewPosition(s).board));
    expect(ed(open).side).toBe(1);
    expect(open.clock?.running).toBe(-1);
    const t = timeLeft(open.clock!, 1, 5000);
    // the clocks stand still while the editor is open
    expect(timeLeft(open.clock!, 1, 60_000)).toBe(t);
    const back = E.closeEditor(open, 60_000);
    expect(back.editor).toBeNull();
    expect(back.tree).toBe(s.tree);
    expect(back.clock?.running).toBe(1);
    expect(clockBefore?.running).toBe(1);
    expect(timeLeft(back.clock!, 1, 60_000)).toBe(t);
  });

  it('the board clicks, drops and turns go to the editor while it is open', () => {
    let s = E.openEditor(state(), 0);
    // a Silver Pyramid is picked and moved onto an empty square, whatever the rules of play
    s = clickSquare(s, sq('c4'), 0, -1);
    expect(ed(s).selected).toBe(sq('c4'));
    s = clickSquare(s, sq('e6'), 0, -1);
    expect(kindOf(ed(s).board[sq('e6')])).toBe(PYRAMID);
    expect(ed(s).board[sq('c4')]).toBe(0);
    const before = oriOf(ed(s).board[sq('e6')]);
    s = rotateSelected(s, '+', 0);
    expect(oriOf(ed(s).board[sq('e6')])).toBe((before + 1) % 4);
    // dropped off the board: removed
    s = dropPiece(s, sq('e6'), -1, 0);
    expect(ed(s).board[sq('e6')]).toBe(0);
    // the game under it did not move
    expect(mainline(s.tree)).toHaveLength(0);
  });

  it('places each kind, turns it by placing it again, stacks obelisks and takes the top one off', () => {
    let s = E.openEditor(state({ edition: 'khet1' }), 0);
    s = E.editorStartFrom(s, { kind: 'empty', edition: 'khet1' });
    s = E.editorTool(s, { kind: 'piece', color: 1, piece: SCARAB });
    s = E.editorClick(s, sq('d4'));
    expect(ed(s).board[sq('d4')]).toBe(makePiece(1, SCARAB, 2));
    s = E.editorClick(s, sq('d4'));
    expect(oriOf(ed(s).board[sq('d4')])).toBe(1);
    s = E.editorTool(s, { kind: 'piece', color: 0, piece: OBELISK });
    s = E.editorClick(s, sq('e5'));
    s = E.editorClick(s, sq('e5'));
    expect(kindOf(ed(s).board[sq('e5')])).toBe(STACK);
    s = E.editorTool(s, { kind: 'erase' });
    s = E.editorClick(s, sq('e5'));
    expect(ed(s).board[sq('e5')]).toBe(makePiece(0, OBELISK, 0));
    // Khet 1.0 has no Sphinx: the tool is not taken
    expect(E.editorTool(s, { kind: 'piece', color: 0, piece: SPHINX })).toBe(s);
    // keys: KFEN letters, D a Djed in Khet 1.0
    // (a new piece faces as its side's last turned piece: the Djed turned on d4)
    s = E.editorPlaceLetter(s, sq('b2'), 'd');
    expect(ed(s).board[sq('b2')]).toBe(makePiece(1, SCARAB, 1));
    expect(E.editorPlaceLetter(s, sq('b2'), 'x')).toBe(s);
  });

  it('a Sphinx turns only between its two legal ways', () => {
    let s = E.openEditor(state(), 0);
    s = E.editorClick(s, sq('j1'));
    const ways = new Set<number>();
    for (let i = 0; i < 4; i++) {
      s = E.editorRotate(s, '+');
      ways.add(oriOf(ed(s).board[sq('j1')]));
    }
    expect([...ways].sort()).toEqual([0, 3]);
  });

  it('a board with problems is refused in words; once fixed it is analysed from its side to move', () => {
    let s = E.openEditor(state(), 0);
    s = E.editorStartFrom(s, { kind: 'empty', edition: 'khet2' });
    const refused = E.editorAnalyse(s, 0);
    expect(refused.editor).not.toBeNull();
    expect(refused.message).toBe('Not yet: Silver has no Pharaoh: each side needs one.');
    s = minimal();
    expect(E.editorProblems(ed(s))).toEqual([]);
    s = E.editorSide(s, 1);
    expect(E.editorKfen(ed(s))).toBe('xv4k4/10/10/10/10/10/10/4K4X^ r 0 1');
    const a = E.editorAnalyse(s, 0);
    expect(a.editor).toBeNull();
    expect(a.mode).toBe('analysis');
    expect(a.tree.startKfen).toBe(E.editorKfen(ed(s)));
    expect(S.viewPosition(a).side).toBe(1);
  });

  it('Play from here against Thoth takes the colour, clock and level chosen', () => {
    const s = minimal();
    const p = E.editorPlay(s, { side: '1', tc: '60+1', level: 5 }, 0);
    expect(p.mode).toBe('engine');
    expect(p.humanSide).toBe(1);
    expect(p.settings.level).toBe(5);
    expect(p.settings.tc).toBe('60+1');
    expect(p.clock?.baseMs).toBe(60_000);
    expect(p.tree.startKfen).toBe(E.editorKfen(ed(s)));
  });

  it('Continue this game from here keeps the mode, the sides, the tags and the clocks as they stood', () => {
    let s = state({ tc: '300+3' });
    s = play(s, 'j1-', 1000);
    s = { ...s, tags: [['Event', 'Club night']] };
    let e = E.openEditor(s, 4000);
    const left = timeLeft(e.clock!, 0, 4000);
    e = E.editorTool(e, { kind: 'erase' });
    e = E.editorClick(e, sq('c4'));
    const c = E.editorContinue(e, 9000);
    expect(c.editor).toBeNull();
    expect(c.mode).toBe('engine');
    expect(c.humanSide).toBe(s.humanSide);
    expect(c.tags).toEqual([['Event', 'Club night']]);
    expect(S.viewPosition(c).board[sq('c4')]).toBe(0);
    expect(S.viewPosition(c).side).toBe(1);
    expect(timeLeft(c.clock!, 0, 9000)).toBe(left);
    expect(c.clock?.running).toBe(1);
  });

  it('a KFEN typed in is set up, in its own edition; one that does not read is said', () => {
    let s = E.openEditor(state(), 0);
    s = E.editorLoadKfen(s, setupKfen('khet1', 'classic') as string);
    expect(ed(s).edition).toBe('khet1');
    const bad = E.editorLoadKfen(s, 'nonsense');
    expect(bad.editor).toBe(s.editor);
    expect(bad.message).toMatch(/^That KFEN does not read: /);
  });
});
