/**
 * Starting a game and changing what the page does: a fresh state, a new game from the settings or
 * from a loaded tree, the settings themselves, the mode (play against Thoth, two players,
 * analysis), and Thoth coming and going. Pure transitions like the rest of the state (state.ts).
 */
import { setupKfen, setupsOf } from '../../../core/index';
import { clockFromText, startClock, stopClock } from './clock';
import { endPath, endPosition, gameLength, isOver } from './state-queries';
import type { Ending, Mode, PageState, Settings } from './state-types';
import { mainlineEnd, newTree, nodeAt, updateNode, type GameTree, type Path } from './tree';

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
  | 'only'
  | 'message'
  | 'bannerClosed'
  | 'setupChosen'
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
    only: null,
    message: '',
    bannerClosed: false,
    setupChosen: false,
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
    drawMode: null,
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

/** The Setup picked for the next game (it takes effect with New game, as the form says). */
export function chooseSetup(s: PageState, setup: Settings['setup']): PageState {
  return { ...setSettings(s, { setup }), setupChosen: true };
}

/** True when the board's game starts from a position of its own, none of its edition's setups. */
export function customStart(s: PageState): boolean {
  return !setupsOf(s.tree.edition).some((x) => setupKfen(s.tree.edition, x) === s.tree.startKfen);
}

/**
 * The side for the next game against Thoth: it takes effect with New game, never at once, not
 * even before the first move (Thoth would move at once in a game the form no longer describes).
 * The form's note says so (view/settings-form.ts); the hint goes on saying whose move it is.
 */
export function chooseSide(s: PageState, side: Settings['side']): PageState {
  return setSettings(s, { side });
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

export const closeBanner = (s: PageState): PageState => ({ ...s, bannerClosed: true });
export const setMessage = (s: PageState, message: string): PageState => ({ ...s, message });
/**
 * Thoth became available or went away (the server had no engine for this tab, or stopped). Against Thoth
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
