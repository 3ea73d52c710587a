/**
 * The board editor's pure part: a board of any edition set up by hand — from the position shown,
 * a setup, or an empty board — with pieces placed, removed, moved and turned, and the side to
 * move; what is wrong with it in words (src/core/legality.ts) before it can be used; and leaving
 * it: *Analyse*, *Play from here against Thoth*, *Continue this game from here*, or *Cancel*. While
 * the editor is open the game under it stands still (its clocks stopped, Thoth's searches off:
 * engine/searches.ts) and comes back as it was on Cancel.
 */
import {
  EDITIONS,
  EDITION_IDS,
  OBELISK,
  PHARAOH,
  SCARAB,
  SPHINX,
  STACK,
  boardToKfen,
  colorOf,
  formatKfenError,
  hasOrientation,
  kindOf,
  makePiece,
  oriOf,
  parseKfen,
  parseKfenData,
  setupKfen,
  setupProblems,
  sphinxFacings,
  type EditionId,
  type Position,
  type SetupName,
  type SetupProblem,
} from '../../../core/index';
import { startClock, stopClock } from './clock';
import { newGame, setMode, setSettings } from './game-start';
import { endPosition, gameInProgress, gameLength, isOver, viewPosition } from './state-queries';
import type { EditorState, EditorTool, PageState, Settings } from './state-types';
import { newTree } from './tree';

export type { EditorState, EditorTool };

/** Where the editor starts from: the position shown, a setup of an edition, or an empty board. */
export type EditorStart =
  | { kind: 'current' }
  | { kind: 'setup'; edition: EditionId; setup: SetupName }
  | { kind: 'empty'; edition: EditionId };

/** The way a side's pieces face by default: each towards the other side. */
const HOME_FACING: readonly [number, number] = [0, 2];

function editorFrom(edition: EditionId, board: ArrayLike<number>, side: number): EditorState {
  return { edition, board: Array.from(board), side, tool: { kind: 'move' }, facing: HOME_FACING, selected: -1 };
}

/** An empty board of an edition: in Khet 2.0 the two Sphinxes stay (they never leave their squares). */
function emptyBoard(edition: EditionId): number[] {
  const ed = EDITIONS[edition];
  const board = new Array<number>(80).fill(0);
  if (ed.sphinx) for (const c of [0, 1]) board[ed.laserSquare[c]] = makePiece(c, SPHINX, sphinxFacings(c)[0]);
  return board;
}

/** The editor's board for a start. */
export function startBoard(s: PageState, start: EditorStart): EditorState {
  if (start.kind === 'current') {
    const pos = viewPosition(s);
    return editorFrom(pos.edition.id, pos.board, pos.side);
  }
  if (start.kind === 'empty') return editorFrom(start.edition, emptyBoard(start.edition), 0);
  const kfen = setupKfen(start.edition, start.setup) ?? (setupKfen(start.edition, 'classic') as string);
  const r = parseKfenData(kfen, start.edition);
  if (!r.ok) throw new Error(`setup ${start.setup}: ${r.error.message}`);
  return editorFrom(start.edition, r.value.board, r.value.side);
}

/** Opens the editor on the position shown; the game under it stands still (its clocks stop). */
export function openEditor(s: PageState, now: number): PageState {
  if (s.editor) return s;
  return {
    ...s,
    editor: startBoard(s, { kind: 'current' }),
    clock: s.clock ? stopClock(s.clock, now) : null,
    selected: -1,
    aim: null,
    armed: null,
    premove: null,
    preview: null,
    message: '',
  };
}

/** Closes the editor: the game under it goes on as it was (its clocks run again where they ran). */
export function closeEditor(s: PageState, now: number): PageState {
  if (!s.editor) return s;
  const next: PageState = { ...s, editor: null, cursor: -1, message: '' };
  const running = next.mode !== 'analysis' && next.clock && gameLength(next) > 0 && !isOver(next);
  return running && next.clock ? { ...next, clock: startClock(next.clock, endPosition(next).side, now) } : next;
}

/** Starts the editor's board again from the position shown, a setup, or an empty board. */
export function editorStartFrom(s: PageState, start: EditorStart): PageState {
  if (!s.editor) return s;
  return { ...s, editor: { ...startBoard(s, start), tool: s.editor.tool, facing: s.editor.facing } };
}

const withEditor = (s: PageState, change: Partial<EditorState>): PageState =>
  s.editor ? { ...s, editor: { ...s.editor, ...change }, message: '' } : s;

export function editorTool(s: PageState, tool: EditorTool): PageState {
  // a tool that does not exist in the board's edition (after a change of edition) is not taken
  if (s.editor && tool.kind === 'piece' && !EDITIONS[s.editor.edition].kinds[tool.piece]) return s;
  return withEditor(s, { tool, selected: tool.kind === 'piece' ? -1 : (s.editor?.selected ?? -1) });
}

export function editorSide(s: PageState, side: number): PageState {
  return withEditor(s, { side });
}

/** A piece of the editor's edition for `color` and `kind`, facing `ori` (a Sphinx only its legal ways). */
function newPiece(color: number, kind: number, ori: number): number {
  if (kind === SPHINX) {
    const legal = sphinxFacings(color);
    return makePiece(color, kind, legal.includes(ori) ? ori : legal[0]);
  }
  return makePiece(color, kind, ori);
}

function setSquare(e: EditorState, sq: number, p: number): number[] {
  const board = e.board.slice();
  board[sq] = p;
  return board;
}

/**
 * A click (or a tap, or Enter at the cursor) on a square. With a piece chosen: an empty square or
 * another piece gets it, facing its side's way; the same piece again turns a quarter clockwise (a
 * tap more, a turn more, as on a touch screen); an obelisk on its side's single obelisk stacks
 * them, and on a stack takes the top one off. Removing: the piece goes (a stack's top obelisk).
 * Moving: a piece is picked, and the next square clicked takes it.
 */
export function editorClick(s: PageState, sq: number): PageState {
  const e = s.editor;
  if (!e || sq < 0 || sq >= 80) return s;
  const p = e.board[sq];
  const tool = e.tool;
  if (tool.kind === 'erase') return withEditor(s, { board: setSquare(e, sq, removed(p)), selected: -1 });
  if (tool.kind === 'move') {
    if (e.selected >= 0 && e.selected !== sq && p === 0) return editorDrop(s, e.selected, sq);
    return withEditor(s, { selected: p !== 0 && e.selected !== sq ? sq : -1 });
  }
  const { color, piece: kind } = tool;
  if (p !== 0 && colorOf(p) === color && kind === OBELISK && kindOf(p) === OBELISK)
    return withEditor(s, { board: setSquare(e, sq, makePiece(color, STACK, 0)), selected: sq });
  if (p !== 0 && colorOf(p) === color && kind === OBELISK && kindOf(p) === STACK)
    return withEditor(s, { board: setSquare(e, sq, makePiece(color, OBELISK, 0)), selected: sq });
  if (p !== 0 && colorOf(p) === color && kindOf(p) === kind && hasOrientation(kind))
    return editorRotate({ ...s, editor: { ...e, selected: sq } }, '+');
  return withEditor(s, { board: setSquare(e, sq, newPiece(color, kind, e.facing[color])), selected: sq });
}

/** What is left of a piece the editor removes: nothing, or a stack's bottom obelisk. */
const removed = (p: number): number => (p !== 0 && kindOf(p) === STACK ? makePiece(colorOf(p), OBELISK, 0) : 0);

/** Removes the piece on a square (a stack's top obelisk). */
export function editorRemove(s: PageState, sq: number): PageState {
  const e = s.editor;
  if (!e || sq < 0 || e.board[sq] === 0) return s;
  return withEditor(s, { board: setSquare(e, sq, removed(e.board[sq])), selected: -1 });
}

/** A piece dragged from one square to another (whatever stood there goes), or off the board (-1: removed whole). */
export function editorDrop(s: PageState, from: number, to: number): PageState {
  const e = s.editor;
  if (!e || from === to || e.board[from] === 0) return s;
  const board = e.board.slice();
  if (to >= 0) board[to] = board[from];
  board[from] = 0;
  return withEditor(s, { board, selected: to });
}

/**
 * Turns the selected piece a quarter (`+` clockwise); a Sphinx turns between its two legal ways, a
 * Djed/Scarab between its two. The turn is what the side's next pieces face. Without a selected
 * piece that turns, the chosen piece's way turns.
 */
export function editorRotate(s: PageState, dir: '+' | '-'): PageState {
  const e = s.editor;
  if (!e) return s;
  const sq = e.selected;
  const p = sq >= 0 ? e.board[sq] : 0;
  const step = dir === '+' ? 1 : 3;
  if (p === 0 || !hasOrientation(kindOf(p))) {
    if (e.tool.kind !== 'piece') return s;
    const c = e.tool.color;
    const facing: [number, number] = [e.facing[0], e.facing[1]];
    facing[c] = (facing[c] + step) % 4;
    return withEditor(s, { facing });
  }
  const c = colorOf(p);
  let ori = (oriOf(p) + step) % 4;
  if (kindOf(p) === SPHINX) {
    const legal = sphinxFacings(c);
    ori = legal.includes(oriOf(p)) ? legal[(legal.indexOf(oriOf(p)) + 1) % 2] : legal[0];
  }
  // a Scarab keeps its orientation mod 2: a turn either way flips its mirror
  if (kindOf(p) === SCARAB) ori = (oriOf(p) + 1) % 2;
  const facing: [number, number] = [e.facing[0], e.facing[1]];
  if (kindOf(p) !== SPHINX) facing[c] = ori;
  return withEditor(s, { board: setSquare(e, sq, makePiece(c, kindOf(p), ori)), facing });
}

/** The selection goes (Escape); a second Escape closes the editor (closeEditor). */
export function editorDeselect(s: PageState): PageState {
  return s.editor && s.editor.selected >= 0 ? withEditor(s, { selected: -1 }) : s;
}

/**
 * A KFEN typed into the editor: its board, legal or not, replaces the editor's (read in the
 * editor's edition first, then in the others), or the person is told why it does not read.
 */
export function editorLoadKfen(s: PageState, text: string): PageState {
  const e = s.editor;
  if (!e) return s;
  const kfen = text.trim().split(/\s+/).join(' ');
  let first = '';
  for (const edition of [e.edition, ...EDITION_IDS.filter((x) => x !== e.edition)]) {
    const r = parseKfenData(kfen, edition);
    if (r.ok) return withEditor(s, { edition, board: Array.from(r.value.board), side: r.value.side, selected: -1 });
    first ||= formatKfenError(r.error);
  }
  return { ...s, message: `That KFEN does not read: ${first}.` };
}

/** KFEN letters, as a key places them: `P` a first-player Pyramid, `k` a second-player Pharaoh. */
export function editorPlaceLetter(s: PageState, sq: number, letter: string): PageState {
  const e = s.editor;
  if (!e || sq < 0 || letter.length !== 1) return s;
  const ed = EDITIONS[e.edition];
  const upper = letter.toUpperCase();
  const kind = { X: SPHINX, K: PHARAOH, P: 3, A: 4, O: OBELISK, T: STACK, [ed.scarabLetter]: SCARAB }[upper];
  if (kind === undefined || !ed.kinds[kind] || upper === letter.toLowerCase()) return s;
  const color = letter === upper ? 0 : 1;
  const p = e.board[sq];
  if (p !== 0 && colorOf(p) === color && kindOf(p) === kind && hasOrientation(kind))
    return editorRotate({ ...s, editor: { ...e, selected: sq } }, '+');
  const piece = kind === STACK ? makePiece(color, STACK, 0) : newPiece(color, kind, e.facing[color]);
  return withEditor(s, { board: setSquare(e, sq, piece), selected: sq, tool: { kind: 'piece', color, piece: kind } });
}

/** The editor's board as a KFEN (any board, legal or not: the editor shows it as it is). */
export function editorKfen(e: EditorState): string {
  return boardToKfen(e.board, e.side, 0, 1, EDITIONS[e.edition]);
}

/** What is wrong with the editor's board, in words: empty when it can be used. */
export function editorProblems(e: EditorState): SetupProblem[] {
  return setupProblems(e.board, e.edition);
}

/** The editor's board as a position to draw (any board: the board draws what it is given). */
export function editorPosition(e: EditorState): Position {
  const r = parseKfen(editorKfen(e), e.edition);
  if (r.ok) return r.value;
  // a board the KFEN reader refuses (a Sphinx away from home, a piece on a reserved square) is drawn all the same
  const pos = parseKfen(boardToKfen(emptyBoard(e.edition), e.side, 0, 1, EDITIONS[e.edition]), e.edition);
  if (!pos.ok) throw new Error(pos.error.message);
  pos.value.setup(e.board, e.side, 0, 1);
  return pos.value;
}

/** The new game's tree from the editor's board, or why it cannot be one. */
function editorTree(s: PageState): { tree: NonNullable<ReturnType<typeof treeOf>> } | { error: string } {
  const e = s.editor;
  if (!e) return { error: 'the board editor is not open' };
  const problems = editorProblems(e);
  if (problems.length > 0) return { error: problems[0].text };
  const tree = treeOf(e);
  return tree ? { tree } : { error: 'the position does not read' };
}

function treeOf(e: EditorState) {
  const t = newTree(e.edition, editorKfen(e));
  return t.ok ? t.value : null;
}

const refused = (s: PageState, error: string): PageState => ({ ...s, message: `Not yet: ${error}` });

/** *Analyse*: the position in Analysis, as a new game. */
export function editorAnalyse(s: PageState, now: number): PageState {
  const t = editorTree(s);
  if ('error' in t) return refused(s, t.error);
  const e = s.editor as EditorState;
  const base = setMode({ ...s, editor: null }, 'analysis', now);
  return newGame(setSettings(base, { edition: e.edition }), t.tree, { now });
}

/** What *Play from here against Thoth* asks: Thoth's level, the clock, the person's colour. */
export type PlayChoice = Pick<Settings, 'level' | 'tc' | 'side'>;

/** *Play from here against Thoth*: a new game from the position with the level, clock and colour chosen. */
export function editorPlay(s: PageState, choice: PlayChoice, now: number, random?: () => number): PageState {
  const t = editorTree(s);
  if ('error' in t) return refused(s, t.error);
  const e = s.editor as EditorState;
  const base = setSettings({ ...s, editor: null, mode: 'engine' }, { ...choice, edition: e.edition });
  return newGame(base, t.tree, { now, random });
}

/**
 * *Continue this game from here*: the game that was on the board goes on from the edited position,
 * as it was played — the same mode (against Thoth: the same side, level and players; or two
 * players), its tags, and its clocks as they stood. Its record starts at the edited position.
 */
export function editorContinue(s: PageState, now: number): PageState {
  const t = editorTree(s);
  if ('error' in t) return refused(s, t.error);
  const e = s.editor as EditorState;
  const clock = s.clock;
  const keep = { humanSide: s.humanSide, flipped: s.flipped, players: s.players };
  const base = setSettings({ ...s, editor: null }, { edition: e.edition });
  const next = newGame(base, t.tree, { now, tags: s.tags });
  const running = clock && s.mode !== 'analysis' && gameInProgress(s) ? startClock(clock, e.side, now) : next.clock;
  return { ...next, ...keep, clock: clock ? running : next.clock };
}
