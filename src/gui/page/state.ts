/**
 * The page's state as plain data, and its transitions as pure functions: each takes a state
 * (and the time `now` where clocks matter) and returns the next one. Nothing here touches the
 * DOM or the engine; the controller (controller.ts) applies these and runs the effects (searches,
 * storage, drawing), so all of the game's rules for people — moves, clocks, take-backs,
 * resignation, draws, analysis lines — are tested without a browser (test/gui/state.test.ts).
 */
import {
  EDITIONS,
  PHARAOH,
  colorOf,
  fileOf,
  formatMove,
  gameStatus,
  kindOf,
  legalMoves,
  parseKfen,
  parseMove,
  rankOf,
  setupKfen,
  square,
  toKfen,
  type EditionId,
  type GameStatus,
  type Position,
  type SetupName,
} from '../../core/index';
import type { ResultToken } from '../../core/record';
import {
  clockAfterMove,
  flagged,
  newClock,
  clockFromText,
  restoreClock,
  startClock,
  stopClock,
  timeLeft,
  type ClockState,
} from './clock';
import { evalOf, type Eval, type Score } from './evaluation';
import type { InfoLine } from './engine-client';
import { playPly, type PlyInfo } from './move-effect';
import { isOwnMovable, rotationMove, targetsOf } from './selection';
import {
  addMove,
  deleteNode,
  isMainline,
  lineEnd,
  mainlineEnd,
  newTree,
  nodeAt,
  pathExists,
  pathKey,
  positionAt,
  promote,
  samePath,
  updateNode,
  type EngineNote,
  type GameTree,
  type Path,
} from './tree';

export type Mode = 'engine' | 'humans' | 'analysis';

/** How long the mover's shot stays on the board before Thoth's reply is shown. */
export const SHOT_HOLD_MS = 800;

/** An end of the game that the board alone does not show. */
export interface Ending {
  result: ResultToken;
  text: string;
  /** As a record's Termination tag says it. */
  termination: string;
}

/** The player's choices, kept between visits. */
export interface Settings {
  edition: EditionId;
  setup: SetupName;
  /** The side for the next game against Thoth. */
  side: '0' | '1' | 'random';
  level: number;
  /** Time control `base+inc` in seconds, or '' for none. */
  tc: string;
  multipv: number;
  /** Show Thoth's thinking (score and line) while it plays you. */
  showThinking: boolean;
  /** Draw both lasers' paths in the shown position all the time. */
  showLasers: boolean;
  /** Draw where the shot of the move under the pointer would go. */
  shotPreview: boolean;
  /**
   * Confirm moves: a first tap (or click) on a target or a rotate button previews the shot, a
   * second plays it. Unset: on for touch screens (the controller decides), off otherwise.
   */
  confirmMoves?: boolean;
  /** Sounds for moves, removals, a Pharaoh hit, low time and the end (sound.ts). */
  sound?: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  edition: 'khet2',
  setup: 'classic',
  side: '0',
  level: 3,
  tc: '300+3',
  multipv: 3,
  showThinking: false,
  showLasers: false,
  shotPreview: true,
};

export interface DrawOffer {
  by: number;
  /** Main-line length when it was made. */
  atPly: number;
}

/** A line of the engine shown on the board move by move (a frozen copy of an analysis line). */
export interface Preview {
  index: number;
  pv: string[];
  score: Score;
  k: number;
}

export interface PageState {
  settings: Settings;
  mode: Mode;
  tree: GameTree;
  /** The position shown: a path into the tree. */
  path: Path;
  /** The side the person plays against Thoth. */
  humanSide: number;
  ending: Ending | null;
  clock: ClockState | null;
  /** Tags of an imported record, written back on export. */
  tags: readonly (readonly [string, string])[];
  /** The players as the record names them (Thoth with its level), once Thoth has played; kept through a review. */
  players: readonly [string, string] | null;
  flipped: boolean;
  selected: number;
  stackTop: boolean;
  cursor: number;
  /** The move under the pointer (a target square, or a rotation of the selected piece): its shot is previewed. */
  aim: number | '+' | '-' | null;
  /** A move the person made while Thoth thinks, played as soon as Thoth has moved, if legal then. */
  premove?: string | null;
  /** Confirm moves: the move a first tap chose (its shot is shown); a second tap plays it. */
  armed?: number | '+' | '-' | null;
  /** Can Thoth play here now (connected, ready, not taken by another page)? */
  engineAvailable: boolean;
  /** Thoth's latest line while it thinks about its move. */
  thinking: InfoLine | null;
  /** Thoth's move, held back while the person's own shot is still shown. */
  pendingReply: { move: number; note: EngineNote } | null;
  /** Until when the last move's shot stays on the board (Thoth's reply waits). */
  holdUntil: number;
  drawOffer: DrawOffer | null;
  analysing: boolean;
  /** The engine's lines for the position at `linesFor` (a path key). */
  lines: InfoLine[];
  linesFor: string;
  preview: Preview | null;
  /** Evaluations of positions by path key, first player's view. */
  evals: Readonly<Record<string, Eval>>;
  /** Thoth's review of the main line (gamereview.ts). */
  review: ReviewState | null;
  /** A message for the person (replaces the hint until the next action). */
  message: string;
  bannerClosed: boolean;
}

/** Thoth's review of the main line (its transitions and what it shows: gamereview.ts). */
export interface ReviewState {
  /** The main line it is for (its start and moves): a changed line makes it stale. */
  key: string;
  /** The score of each main-line position (index = moves played), side to move's view. */
  scores: (Score | undefined)[];
  /** The engine's best move in each main-line position, where scored (what "Best was …" names). */
  best?: (string | undefined)[];
  /**
   * The score of each main-line move as played (index = the move), the mover's view, searched alone
   * where the engine chose another move (src/analysis/review-method.ts).
   */
  played?: (Score | undefined)[];
}

// ---- reading the state ---------------------------------------------------------------------

export const endPath = (s: PageState): Path => mainlineEnd(s.tree);
export const gameLength = (s: PageState): number => endPath(s).length;
export const atEnd = (s: PageState): boolean => samePath(s.path, endPath(s));
export const viewPosition = (s: PageState): Position => positionAt(s.tree, s.path);
export const endPosition = (s: PageState): Position => positionAt(s.tree, endPath(s));
export const positionAtPath = (s: PageState, path: Path): Position => positionAt(s.tree, path);
export const gameStatusOf = (pos: Position): GameStatus['result'] => gameStatus(pos).result;
export const colorNames = (s: PageState): readonly [string, string] => EDITIONS[s.tree.edition].colorNames;

/** The game's result: an ending decided off the board, or the board's own (Pharaoh hit, draw rules). */
export function gameResult(s: PageState): Ending | null {
  if (s.ending) return s.ending;
  const st = gameStatus(endPosition(s));
  if (st.result === 'ongoing') return null;
  if (st.result === 'draw') return { result: '1/2-1/2', text: st.text, termination: 'normal' };
  return { result: st.winner === 0 ? '1-0' : '0-1', text: st.text, termination: 'normal' };
}

export const isOver = (s: PageState): boolean => gameResult(s) !== null;

/** Is this a game being played (moves made, not over, not analysis)? Abandoning it needs a confirmation. */
export const gameInProgress = (s: PageState): boolean => s.mode !== 'analysis' && gameLength(s) > 0 && !isOver(s);

/** Thoth's side against the person, or -1 when Thoth does not play. */
export const thothSide = (s: PageState): number => (s.mode === 'engine' ? s.humanSide ^ 1 : -1);

/** May a person move pieces in the shown position now? */
export function humanMayMove(s: PageState): boolean {
  if (s.preview) return false;
  const pos = viewPosition(s);
  if (pos.winner >= 0 || gameStatus(pos).result !== 'ongoing') return false;
  if (s.mode === 'analysis') return true;
  if (!atEnd(s) || isOver(s)) return false;
  if (s.mode === 'engine') return pos.side === s.humanSide && s.engineAvailable && !s.pendingReply;
  return true;
}

/** The draw the side to move may claim at the end of the game: a move reaching a draw by rule. */
export function drawClaim(pos: Position): { move: string; text: string } | null {
  if (gameStatus(pos).result !== 'ongoing') return null;
  for (const m of legalMoves(pos)) {
    const q = pos.clone();
    q.make(m);
    const st = gameStatus(q);
    if (st.result === 'draw' && (st.reason === 'repetition' || st.reason === 'no-removal')) {
      const why =
        st.reason === 'repetition'
          ? 'the position would occur a third time'
          : 'no piece would have been removed for the limit';
      return { move: formatMove(m), text: why };
    }
  }
  return null;
}

/** Thoth takes a draw when its own evaluation says it is not better (score from its view). */
export function thothAcceptsDraw(score: Score | undefined): boolean {
  if (!score) return false;
  return score.kind === 'mate' ? score.value < 0 : score.value <= 0;
}

// ---- starting ------------------------------------------------------------------------------

/** A fresh state for `settings`: a new game from the chosen setup. */
export function initialState(settings: Settings, random: () => number = Math.random): PageState {
  const kfen = setupKfen(settings.edition, settings.setup) ?? (setupKfen(settings.edition, 'classic') as string);
  const tree = newTree(settings.edition, kfen);
  if (!tree.ok) throw new Error(tree.error);
  const humanSide = sideFor(settings, random);
  return {
    settings,
    mode: 'engine',
    tree: tree.value,
    path: [],
    humanSide,
    ending: null,
    clock: clockFromText(settings.tc),
    tags: [],
    players: null,
    flipped: humanSide === 1,
    selected: -1,
    stackTop: false,
    cursor: -1,
    aim: null,
    engineAvailable: false,
    ...freshView(),
  };
}

/** What a new game or a reloaded page starts without: no search shown, no pending reply, no offer, no review. */
export function freshView(): Pick<
  PageState,
  | 'thinking'
  | 'pendingReply'
  | 'holdUntil'
  | 'drawOffer'
  | 'analysing'
  | 'lines'
  | 'linesFor'
  | 'preview'
  | 'evals'
  | 'review'
  | 'message'
  | 'bannerClosed'
> {
  return {
    thinking: null,
    pendingReply: null,
    holdUntil: 0,
    drawOffer: null,
    analysing: true,
    lines: [],
    linesFor: '',
    preview: null,
    evals: {},
    review: null,
    message: '',
    bannerClosed: false,
  };
}

function sideFor(settings: Settings, random: () => number): number {
  return settings.side === 'random' ? (random() < 0.5 ? 0 : 1) : Number(settings.side);
}

/** A new game from `tree` (a setup, a loaded position, an imported record) in the current mode. */
export function newGame(
  s: PageState,
  tree: GameTree,
  opts: { path?: Path; ending?: Ending | null; tags?: PageState['tags']; now: number; random?: () => number },
): PageState {
  const humanSide = s.mode === 'engine' ? sideFor(s.settings, opts.random ?? Math.random) : s.humanSide;
  const path = opts.path ?? mainlineEnd(tree);
  let clock = s.mode === 'analysis' ? null : clockFromText(s.settings.tc);
  const next: PageState = {
    ...s,
    tree,
    path,
    humanSide,
    ending: opts.ending ?? null,
    clock,
    tags: opts.tags ?? [],
    players: null,
    premove: null,
    flipped: s.mode === 'engine' ? humanSide === 1 : s.flipped,
    selected: -1,
    stackTop: false,
    cursor: -1,
    aim: null,
    ...freshView(),
  };
  // The clocks start with the first move; a game loaded with moves has them running.
  if (clock && path.length > 0 && !isOver(next)) clock = startClock(clock, endPosition(next).side, opts.now);
  return { ...next, clock };
}

/** A new game from the setup in the settings. */
export function newGameFromSettings(s: PageState, now: number, random?: () => number): PageState {
  const kfen = setupKfen(s.settings.edition, s.settings.setup) ?? (setupKfen(s.settings.edition, 'classic') as string);
  const tree = newTree(s.settings.edition, kfen);
  if (!tree.ok) return { ...s, message: tree.error };
  return newGame(s, tree.value, { now, random });
}

export function setSettings(s: PageState, change: Partial<Settings>): PageState {
  return { ...s, settings: { ...s.settings, ...change } };
}

/**
 * The side for the next game against Thoth: it takes effect with New game, never at once, not
 * even before the first move (Thoth would move at once in a game the form no longer describes).
 */
export function chooseSide(s: PageState, side: Settings['side']): PageState {
  const next = setSettings(s, { side });
  if (s.mode !== 'engine') return next;
  return { ...next, message: 'Your side changes with the next game (New game).' };
}

// ---- modes ---------------------------------------------------------------------------------

/**
 * Changes the mode. The clocks of a game stand still in analysis and go on from where they stood
 * when it returns to play (a game without clocks yet gets the time control's); they run again
 * once the game has started.
 */
export function setMode(s: PageState, mode: Mode, now: number): PageState {
  if (mode === s.mode) return s;
  let clock = s.clock;
  if (mode === 'analysis') clock = clock ? stopClock(clock, now) : null;
  else if (s.mode === 'analysis' && !clock) clock = clockFromText(s.settings.tc);
  let next: PageState = {
    ...s,
    mode,
    clock,
    selected: -1,
    preview: null,
    thinking: null,
    pendingReply: null,
    holdUntil: 0,
    drawOffer: null,
    premove: null,
    analysing: true,
    message: '',
    path: mode === 'analysis' ? s.path : mainlineEnd(s.tree),
  };
  if (mode !== 'analysis' && next.clock && gameLength(next) > 0 && !isOver(next)) {
    next = { ...next, clock: startClock(next.clock!, endPosition(next).side, now) };
  }
  return next;
}

/**
 * *Play Thoth* picked over a position (two players, analysis, a loaded record): the person takes
 * the side to move, so Thoth never moves at once; New game starts one with the form's settings.
 * A game against Thoth that analysis interrupted (its last move notes it) goes on as it was.
 */
export function playFromHere(s: PageState, now: number): PageState {
  const end = endPath(s);
  const interrupted = end.length > 0 && (nodeAt(s.tree, end)?.comment ?? '').includes(ANALYSED_NOTE);
  const next = setMode(s, 'engine', now);
  if (next === s || interrupted || isOver(next)) return next;
  const humanSide = endPosition(next).side;
  return { ...next, humanSide, flipped: humanSide === 1 };
}

/** The note on the game's last move when analysis was opened in the middle of a game against Thoth. */
export const ANALYSED_NOTE = 'Analysis (Thoth\u2019s lines) opened during the game';

/**
 * Analysis opened in the middle of a game against Thoth: it shows Thoth's lines, so the game
 * records it (a comment on the last move, kept in the record) before the mode changes.
 */
export function analyseDuringGame(s: PageState, now: number): PageState {
  const end = endPath(s);
  if (s.mode !== 'engine' || end.length === 0 || isOver(s)) return setMode(s, 'analysis', now);
  const n = nodeAt(s.tree, end);
  const comment = n?.comment
    ? n.comment.includes(ANALYSED_NOTE)
      ? n.comment
      : `${n.comment} ${ANALYSED_NOTE}`
    : ANALYSED_NOTE;
  return setMode({ ...s, tree: updateNode(s.tree, end, (x) => ({ ...x, comment })) }, 'analysis', now);
}

// ---- moves ---------------------------------------------------------------------------------

/** Plays a legal move in the shown position (a person's move, or an analysis move). */
export function playMove(s: PageState, move: number, now: number, note?: EngineNote): PageState {
  const pos = viewPosition(s);
  if (!legalMoves(pos).includes(move)) return s;
  if (s.mode !== 'analysis' && (!atEnd(s) || isOver(s))) return s;
  const mover = pos.side;
  const added = addMove(s.tree, s.path, move, note ? { engine: note } : {});
  let next: PageState = {
    ...s,
    tree: added.tree,
    path: added.path,
    selected: -1,
    preview: null,
    message: '',
    bannerClosed: false,
    cursor: s.cursor,
    holdUntil: 0,
    armed: null,
  };
  if (s.mode === 'analysis') return next;
  // A draw offered by the other side lapses when this side moves on instead.
  if (next.drawOffer && next.drawOffer.by !== mover) next = { ...next, drawOffer: null };
  if (s.mode === 'engine' && mover === s.humanSide) next = { ...next, holdUntil: now + SHOT_HOLD_MS };
  if (next.clock) {
    const clock = clockAfterMove(next.clock, mover, now, isOver(next));
    const clocks: [number, number] = [timeLeft(clock, 0, now), timeLeft(clock, 1, now)];
    next = { ...next, clock, tree: setClocks(next.tree, next.path, clocks) };
  }
  return next;
}

function setClocks(tree: GameTree, path: Path, clocks: [number, number]): GameTree {
  return updateNode(tree, path, (n) => ({ ...n, clocks }));
}

/** Thoth plays this game as `thoth` (its name and level): the record's players. */
export function thothPlays(s: PageState, thoth: string): PageState {
  if (s.mode !== 'engine') return s;
  const players: [string, string] = s.humanSide === 0 ? ['Human', thoth] : [thoth, 'Human'];
  return s.players && s.players[0] === players[0] && s.players[1] === players[1] ? s : { ...s, players };
}

/**
 * Thoth's move arrived for the position at the end of the game. While the person's own shot is
 * still on show it waits (Thoth's clock is stopped meanwhile); a draw the person offered is
 * answered first.
 */
export function engineMoved(s: PageState, text: string, note: EngineNote, now: number): PageState {
  if (s.mode !== 'engine' || isOver(s)) return s;
  const pos = endPosition(s);
  if (pos.side === s.humanSide) return s;
  if (s.drawOffer && s.drawOffer.by === s.humanSide) {
    const score: Score | undefined =
      note.mate !== undefined
        ? { kind: 'mate', value: note.mate }
        : note.scoreCp !== undefined
          ? { kind: 'cp', value: note.scoreCp }
          : undefined;
    if (thothAcceptsDraw(score))
      return endGame(
        { ...s, drawOffer: null },
        { result: '1/2-1/2', text: 'Draw by agreement: Thoth accepted your offer', termination: 'normal' },
        now,
      );
    s = { ...s, drawOffer: null, message: 'Thoth declines the draw.' };
  }
  if (text === '(none)' || text === '0000') return { ...s, thinking: null, message: 'Thoth has no move to make here.' };
  const m = parseMove(pos, text);
  if (!m.ok) return { ...s, thinking: null, message: `Thoth sent an illegal move '${text}': ${m.error.message}` };
  const waiting: PageState = { ...s, thinking: null };
  if (now < s.holdUntil) {
    return {
      ...waiting,
      pendingReply: { move: m.value, note },
      clock: waiting.clock ? stopClock(waiting.clock, now) : null,
    };
  }
  return applyReply({ ...waiting, pendingReply: { move: m.value, note } }, now);
}

/**
 * The hold counts from when the person's shot is on the screen: the page calls this once it has
 * drawn the move (drawing a busy page can take a good part of the hold).
 */
export function holdFrom(s: PageState, now: number): PageState {
  return s.holdUntil > 0 && !s.pendingReply ? { ...s, holdUntil: now + SHOT_HOLD_MS } : s;
}

/** Shows Thoth's held-back move now (the hold is over, or the person skipped it). */
export function showPendingReply(s: PageState, now: number): PageState {
  if (!s.pendingReply) return s.holdUntil > 0 ? { ...s, holdUntil: 0 } : s;
  return applyReply(s, now);
}

function applyReply(s: PageState, now: number): PageState {
  const reply = s.pendingReply;
  if (!reply) return s;
  const followed = atEnd(s);
  const base: PageState = { ...s, pendingReply: null, holdUntil: 0, path: endPath(s) };
  // Thoth's words (a declined draw) stay with its move.
  const next = {
    ...playMove({ ...base, selected: -1, premove: null }, reply.move, now, reply.note),
    message: s.message,
  };
  if (s.premove && followed) return playPremove(next, s.premove, now);
  // Someone looking back through the game stays where they are.
  return followed
    ? { ...next, selected: s.selected >= 0 && humanMayMove(next) ? s.selected : -1 }
    : { ...next, path: s.path };
}

/** The premove, right after Thoth's move: played at once when legal, else dropped with a word. */
function playPremove(s: PageState, text: string, now: number): PageState {
  if (!humanMayMove(s)) return s;
  const m = parseMove(endPosition(s), text);
  if (!m.ok) return { ...s, message: `Your premove ${text} is not legal after Thoth's move: it was dropped.` };
  return playMove(s, m.value, now);
}

/**
 * Premoves: while Thoth thinks about its move, the person may pick their next one in the position
 * as it stands (with them to move). Null when no premove can be made now.
 */
export function premovePosition(s: PageState): Position | null {
  if (s.mode !== 'engine' || s.preview || !atEnd(s) || isOver(s) || !s.engineAvailable || s.pendingReply) return null;
  const pos = endPosition(s);
  if (pos.side === s.humanSide) return null;
  const f = toKfen(pos).split(' ');
  f[1] = pos.edition.sideChars[s.humanSide];
  const r = parseKfen(f.join(' '), s.tree.edition);
  return r.ok ? r.value : null;
}

/** The position the person picks pieces in now: the shown one, or the premove position, or none. */
export function pickPosition(s: PageState): Position | null {
  return humanMayMove(s) ? viewPosition(s) : premovePosition(s);
}

/** Sets (or with null cancels) the premove. */
export function setPremove(s: PageState, text: string | null): PageState {
  return { ...s, premove: text, selected: -1, aim: null, armed: null, message: '' };
}

/** A click on a square while Thoth thinks: pick a piece and a target for the premove. */
function premoveClick(s: PageState, pp: Position, sq: number, pickedBefore: number): PageState {
  if (s.selected >= 0) {
    const t = targetsOf(pp, s.selected, s.stackTop).get(sq);
    if (t) return setPremove(s, formatMove(t.move));
  }
  if (isOwnMovable(pp, sq)) return pickedBefore === sq ? select(s, -1) : select(s, sq);
  return select(s, -1);
}

function endGame(s: PageState, ending: Ending, now: number): PageState {
  return {
    ...s,
    ending,
    clock: s.clock ? stopClock(s.clock, now) : null,
    pendingReply: null,
    holdUntil: 0,
    thinking: null,
    premove: null,
    selected: -1,
    drawOffer: null,
    bannerClosed: false,
    path: endPath(s),
    preview: null,
  };
}

/** A clock that ran out ends the game. */
export function checkFlag(s: PageState, now: number): PageState {
  if (!s.clock || s.mode === 'analysis' || isOver(s)) return s;
  const loser = flagged(s.clock, now);
  if (loser < 0) return s;
  const names = colorNames(s);
  const ended = endGame(
    s,
    {
      result: loser === 0 ? '0-1' : '1-0',
      text: `${names[loser ^ 1]} wins on time: ${names[loser]}'s clock ran out`,
      termination: 'time forfeit',
    },
    now,
  );
  const remaining: [number, number] = [ended.clock!.remaining[0], ended.clock!.remaining[1]];
  remaining[loser] = 0;
  return { ...ended, clock: { ...ended.clock!, remaining } };
}

/**
 * Takes back the last move — against Thoth, back to the person's turn. Refused once the game is
 * over. The clocks return to the times they showed then, so increments cannot be farmed.
 */
export function takeBack(s: PageState, now: number): PageState {
  if (s.mode === 'analysis') return s;
  if (isOver(s)) return { ...s, message: 'The game is over: moves can no longer be taken back.' };
  let len = gameLength(s);
  let tree = s.tree;
  if (s.pendingReply) {
    // Thoth's reply was not shown yet: it goes with the person's move.
    s = { ...s, pendingReply: null };
  }
  if (len === 0) return s;
  let n = 1;
  if (s.mode === 'engine') {
    const lastSide = positionAt(tree, endPath(s).slice(0, len - 1)).side;
    n = lastSide === s.humanSide ? 1 : 2;
    if (len - n < 0 || positionAt(tree, endPath(s).slice(0, len - n)).side !== s.humanSide) n = 1;
  }
  const keep = len - n;
  tree = deleteNode(tree, new Array<number>(keep + 1).fill(0));
  len = keep;
  let clock = s.clock;
  if (clock) {
    const before = len > 0 ? nodeAt(tree, new Array<number>(len).fill(0))?.clocks : undefined;
    const side = positionAt(tree, new Array<number>(len).fill(0)).side;
    clock = len === 0 ? newClock(clock.baseMs, clock.incMs) : restoreClock(clock, before ?? clock.remaining, side, now);
  }
  return {
    ...s,
    tree,
    path: new Array<number>(len).fill(0),
    clock,
    selected: -1,
    holdUntil: 0,
    pendingReply: null,
    thinking: null,
    premove: null,
    drawOffer: null,
    preview: null,
    message: '',
    bannerClosed: false,
  };
}

/** The side to move (two players) or the person (against Thoth) gives up. */
export function resign(s: PageState, now: number): PageState {
  if (s.mode === 'analysis' || isOver(s)) return s;
  const side = s.mode === 'engine' ? s.humanSide : endPosition(s).side;
  const names = colorNames(s);
  return endGame(
    s,
    {
      result: side === 0 ? '0-1' : '1-0',
      text: `${names[side ^ 1]} wins: ${names[side]} resigned`,
      termination: 'normal',
    },
    now,
  );
}

/**
 * Offers a draw: against Thoth it answers with its next move, by its evaluation; between two
 * players the other one accepts or declines (moving on declines).
 */
export function offerDraw(s: PageState): PageState {
  if (s.mode === 'analysis' || isOver(s) || s.drawOffer) return s;
  const by = s.mode === 'engine' ? s.humanSide : endPosition(s).side;
  const message =
    s.mode === 'engine'
      ? 'You offered a draw: Thoth answers with its next move.'
      : `${colorNames(s)[by]} offers a draw.`;
  return { ...s, drawOffer: { by, atPly: gameLength(s) }, message };
}

export function acceptDraw(s: PageState, now: number): PageState {
  if (!s.drawOffer || isOver(s)) return s;
  return endGame(s, { result: '1/2-1/2', text: 'Draw by agreement', termination: 'normal' }, now);
}

export function declineDraw(s: PageState): PageState {
  return s.drawOffer ? { ...s, drawOffer: null, message: 'Draw declined.' } : s;
}

/** Claims the draw a rule gives (a move reaching the third repetition or the no-removal limit). */
export function claimDraw(s: PageState, now: number): PageState {
  if (s.mode === 'analysis' || isOver(s)) return s;
  const pos = endPosition(s);
  if (s.mode === 'engine' && pos.side !== s.humanSide) return s;
  const c = drawClaim(pos);
  if (!c) return { ...s, message: 'No draw can be claimed here.' };
  return endGame(
    s,
    { result: '1/2-1/2', text: `Draw claimed by ${colorNames(s)[pos.side]}: ${c.text}`, termination: 'normal' },
    now,
  );
}

// ---- the board -----------------------------------------------------------------------------

export function select(s: PageState, sq: number): PageState {
  const pos = viewPosition(s);
  const stackTop = sq >= 0 && pos.board[sq] !== 0 && s.selected === sq ? s.stackTop : false;
  return { ...s, selected: sq, stackTop, message: '', aim: null, armed: null };
}

/** The pointer (or the keyboard cursor) is on a move of the selected piece, or on nothing. */
export function aimAt(s: PageState, aim: PageState['aim']): PageState {
  return s.aim === aim ? s : { ...s, aim };
}

/** The move being aimed at (a move armed by a first tap first), when it is one the selected piece may make. */
export function aimedMove(s: PageState): number {
  const aim = s.armed ?? s.aim;
  if (aim === null || s.selected < 0 || !humanMayMove(s)) return -1;
  const pos = viewPosition(s);
  if (aim === '+' || aim === '-') return rotationMove(pos, s.selected, aim);
  return targetsOf(pos, s.selected, s.stackTop).get(aim)?.move ?? -1;
}

/** What the aimed move's shot would cost its mover: its own piece, or its own Pharaoh (a loss). */
export function aimedOwnLoss(s: PageState): 'piece' | 'pharaoh' | null {
  const shot = aimedShot(s);
  if (!shot || shot.killedSq < 0 || colorOf(shot.killedPiece) !== shot.side) return null;
  return kindOf(shot.killedPiece) === PHARAOH ? 'pharaoh' : 'piece';
}

/** What the aimed move's shot would do: drawn before the move is played. */
export function aimedShot(s: PageState): PlyInfo | null {
  const m = aimedMove(s);
  return m >= 0 ? playPly(viewPosition(s), m) : null;
}

/** The keyboard cursor moves a square (the board's directions as the person sees them). */
export function moveCursor(s: PageState, dFile: number, dRank: number): PageState {
  const pos = viewPosition(s);
  if (s.cursor < 0) {
    // It appears on the selected piece, else the first own piece from the bottom left, else e1.
    let start = -1;
    for (let sq = 0; sq < 80 && start < 0; sq++)
      if (pos.board[sq] !== 0 && colorOf(pos.board[sq]) === pos.side) start = sq;
    return { ...s, cursor: s.selected >= 0 ? s.selected : start >= 0 ? start : 4 };
  }
  const d = s.flipped ? -1 : 1;
  const f = Math.max(0, Math.min(9, fileOf(s.cursor) + dFile * d));
  const r = Math.max(0, Math.min(7, rankOf(s.cursor) + dRank * d));
  const cursor = square(f, r);
  const onTarget = s.selected >= 0 && targetsOf(pos, s.selected, s.stackTop).has(cursor);
  return { ...s, cursor, aim: onTarget ? cursor : null };
}

export const flip = (s: PageState): PageState => ({ ...s, flipped: !s.flipped });
export const closeBanner = (s: PageState): PageState => ({ ...s, bannerClosed: true });
export const setMessage = (s: PageState, message: string): PageState => ({ ...s, message });
/**
 * Thoth became available or went away (another tab took it, the server stopped). Against Thoth
 * the clocks stand still meanwhile: nobody can move.
 */
export function setEngineAvailable(s: PageState, engineAvailable: boolean, now: number): PageState {
  if (s.engineAvailable === engineAvailable) return s;
  let clock = s.clock;
  if (clock && s.mode === 'engine') {
    if (!engineAvailable) clock = stopClock(clock, now);
    else if (gameLength(s) > 0 && !isOver(s) && !s.pendingReply) clock = startClock(clock, endPosition(s).side, now);
  }
  return { ...s, engineAvailable, clock, selected: engineAvailable ? s.selected : -1 };
}

/**
 * A click (or Enter) on a square: pick a piece, move it, or drop the selection. With `confirm`
 * a first click on a target only shows its shot (armed); a second one plays it.
 */
export function clickSquare(s: PageState, sq: number, now: number, pickedBefore: number, confirm = false): PageState {
  const pos = viewPosition(s);
  if (!humanMayMove(s)) {
    const pp = premovePosition(s);
    if (pp) return premoveClick(s, pp, sq, pickedBefore);
    if (s.mode !== 'analysis' && !atEnd(s))
      return { ...s, message: 'You are looking at an earlier position: press End (or ») to return to the game.' };
    return s;
  }
  if (s.selected >= 0) {
    const t = targetsOf(pos, s.selected, s.stackTop).get(sq);
    if (t && confirm && s.armed !== sq) return { ...s, armed: sq, aim: sq, message: '' };
    if (t) return playMove(s, t.move, now);
  }
  if (isOwnMovable(pos, sq)) return pickedBefore === sq ? select(s, -1) : select(s, sq);
  const p = pos.board[sq];
  const next = select(s, -1);
  if (p !== 0 && colorOf(p) !== pos.side)
    return { ...next, message: `That ${colorNames(s)[colorOf(p)]} piece is not yours to move.` };
  return next;
}

/** A piece dragged from `from` and dropped on `to`. */
export function dropPiece(s: PageState, from: number, to: number, now: number): PageState {
  if (!humanMayMove(s)) {
    const pp = premovePosition(s);
    const t = pp ? targetsOf(pp, from, s.stackTop).get(to) : undefined;
    return t ? setPremove(s, formatMove(t.move)) : s;
  }
  const t = targetsOf(viewPosition(s), from, s.stackTop).get(to);
  return t ? playMove(s, t.move, now) : s;
}

/** Rotates the selected piece (with `confirm`, a first press only shows the shot). */
export function rotateSelected(s: PageState, dir: '+' | '-', now: number, confirm = false): PageState {
  if (s.selected >= 0 && !humanMayMove(s)) {
    const pp = premovePosition(s);
    const m = pp ? rotationMove(pp, s.selected, dir) : -1;
    return m >= 0 ? setPremove(s, formatMove(m)) : s;
  }
  if (s.selected < 0 || !humanMayMove(s)) return s;
  const m = rotationMove(viewPosition(s), s.selected, dir);
  if (m >= 0 && confirm && s.armed !== dir) return { ...s, armed: dir, aim: dir, message: '' };
  return m >= 0 ? playMove(s, m, now) : s;
}

export function toggleStackTop(s: PageState): PageState {
  return { ...s, stackTop: !s.stackTop };
}

// ---- navigation ----------------------------------------------------------------------------

export function goTo(s: PageState, path: Path): PageState {
  if (!pathExists(s.tree, path)) return s;
  if (samePath(path, s.path) && !s.preview) return s;
  return { ...s, path, preview: null, selected: -1, message: '' };
}

/** One move back or forward along the shown line (forward follows the main line of the branch). */
export function step(s: PageState, d: -1 | 1): PageState {
  if (d < 0) return s.path.length > 0 ? goTo(s, s.path.slice(0, -1)) : s;
  const end = lineEnd(s.tree, s.path);
  return end.length > s.path.length ? goTo(s, end.slice(0, s.path.length + 1)) : s;
}

export const goFirst = (s: PageState): PageState => goTo(s, []);
/** To the end of the game (play) or of the shown line (analysis). */
export const goLast = (s: PageState): PageState =>
  goTo(s, s.mode === 'analysis' ? lineEnd(s.tree, s.path) : endPath(s));

/** Analysis: the variation through the shown position becomes the main line. */
export function promoteLine(s: PageState): PageState {
  if (isMainline(s.path)) return s;
  const r = promote(s.tree, s.path);
  return { ...s, tree: r.tree, path: r.path, evals: {} };
}

/** Analysis: the shown move and what follows it go. */
export function deleteFromHere(s: PageState): PageState {
  if (s.path.length === 0) return s;
  return { ...s, tree: deleteNode(s.tree, s.path), path: s.path.slice(0, -1), evals: {} };
}

// ---- engine lines --------------------------------------------------------------------------

/** The key of the position whose lines are shown. */
export const linesKey = (s: PageState): string => `${s.tree.startKfen}|${pathKey(s.path)}`;

/** An analysis line for the position `forKey`; the first line's score is also the position's evaluation. */
export function analysisLine(s: PageState, forKey: string, info: InfoLine): PageState {
  if (forKey !== linesKey(s) || info.multipv > s.settings.multipv) return s;
  const lines = s.linesFor === forKey ? s.lines.slice() : [];
  lines[info.multipv - 1] = info;
  let evals = s.evals;
  if (info.multipv === 1 && info.bound !== 'lower' && info.bound !== 'upper') {
    evals = { ...evals, [pathKey(s.path)]: evalOf(info.score, viewPosition(s).side, info.depth) };
  }
  return { ...s, lines, linesFor: forKey, evals };
}

/** The lines to show: those of the shown position, as many as asked for. */
export function shownLines(s: PageState): InfoLine[] {
  return s.linesFor === linesKey(s) ? s.lines.slice(0, s.settings.multipv).filter(Boolean) : [];
}

/** Thoth's latest line while it thinks about its move (kept for the draw answer and the record). */
export function thinkingLine(s: PageState, info: InfoLine): PageState {
  return info.multipv === 1 ? { ...s, thinking: info } : s;
}

export function setAnalysing(s: PageState, on: boolean): PageState {
  return { ...s, analysing: on };
}

/** Starts showing an analysis line on the board: a copy, so that it holds still while the engine goes on. */
export function startPreview(s: PageState, index: number): PageState {
  const l = shownLines(s)[index];
  if (!l) return s;
  return { ...s, preview: { index, pv: l.pv.slice(), score: l.score, k: 1 }, selected: -1 };
}

export function stepPreview(s: PageState, d: number): PageState {
  if (!s.preview) return s;
  return { ...s, preview: { ...s.preview, k: Math.max(1, Math.min(s.preview.pv.length, s.preview.k + d)) } };
}

export const exitPreview = (s: PageState): PageState => (s.preview ? { ...s, preview: null } : s);

/** An evaluation of the position at `path` from elsewhere (a review, Thoth's own search). */
export function recordEval(s: PageState, path: Path, e: Eval): PageState {
  const k = pathKey(path);
  const old = s.evals[k];
  if (old && old.depth > e.depth) return s;
  return { ...s, evals: { ...s.evals, [k]: e } };
}
