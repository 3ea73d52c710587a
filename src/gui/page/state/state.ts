/**
 * The page's state as plain data, and its transitions as pure functions: each takes a state
 * (and the time `now` where clocks matter) and returns the next one. Nothing in state/ touches the
 * DOM or the engine (test/layers.test.ts checks it); the controller (../controller.ts) applies
 * these and runs the effects (searches, storage, drawing), so all of the game's rules for people — moves, clocks, take-backs,
 * resignation, draws, analysis lines — are tested without a browser (test/gui/state.test.ts).
 *
 * The shape is in state-types.ts; the transitions live by concern: state-queries.ts (what the
 * state says), game-start.ts (new games, settings, modes), game-moves.ts (moves and Thoth's reply),
 * premove.ts, game-end.ts (flags, take-backs, resignation, draws), board-input.ts (picking, aiming,
 * clicks), navigation.ts, analysis-lines.ts (the engine's lines and the evaluations) and
 * typed-move.ts (the move box).
 */

// Kept importable from here for the controller's (and the other modules' and tests')
// `import * as S from './state'` and named imports.
export type { Mode, Ending, Settings, DrawOffer, Preview, PageState, ReviewState } from './state-types';
export { DEFAULT_SETTINGS } from './state-types';
export {
  endPath,
  gameLength,
  atEnd,
  viewPosition,
  endPosition,
  positionAtPath,
  gameStatusOf,
  colorNames,
  gameResult,
  isOver,
  gameInProgress,
  thothSide,
  humanMayMove,
  drawClaim,
  thothAcceptsDraw,
} from './state-queries';
export {
  initialState,
  freshView,
  newGame,
  newGameFromSettings,
  setSettings,
  chooseSide,
  chooseSetup,
  customStart,
  setMode,
  playFromHere,
  ANALYSED_NOTE,
  analyseDuringGame,
  closeBanner,
  setMessage,
  setEngineAvailable,
} from './game-start';
export { SHOT_HOLD_MS, playMove, thothPlays, engineMoved, holdFrom, showPendingReply } from './game-moves';
export { premovePosition, pickPosition, setPremove } from './premove';
export { checkFlag, takeBack, resign, offerDraw, acceptDraw, declineDraw, claimDraw } from './game-end';
export {
  select,
  aimAt,
  aimedMove,
  aimedOwnLoss,
  aimedShot,
  moveCursor,
  flip,
  clickSquare,
  dropPiece,
  rotateSelected,
  toggleStackTop,
} from './board-input';
export { goTo, step, goFirst, goLast, promoteLine, deleteFromHere } from './navigation';
export {
  linesKey,
  analysisLine,
  shownLines,
  thinkingLine,
  setAnalysing,
  startPreview,
  stepPreview,
  exitPreview,
  recordEval,
} from './analysis-lines';
