/**
 * The page's state as plain data: its shape (PageState, and the settings, endings, offers, previews
 * and review it holds) and the default settings. The transitions over it are in the modules that
 * state.ts lists.
 */
import type { EditionId, SetupName } from '../../../core/index';
import type { ResultToken } from '../../../core/record';
import type { ClockState } from './clock';
import type { Eval, Score } from './evaluation';
import type { InfoLine } from '../../../core/info';
import type { EngineNote, GameTree, Path } from './tree';
import type { ShapeColor } from '../../../core/index';

export type Mode = 'engine' | 'humans' | 'analysis';

/** An end of the game that the board alone does not show. */
export interface Ending {
  result: ResultToken;
  text: string;
  /** As a record's Termination tag says it. */
  termination: string;
}

/** Thoth's levels as a player picks them: 1 to LEVEL_COUNT (the last is full strength; engine/levels.ts). */
export const LEVEL_COUNT = 8;

/** The player's choices, kept between visits. */
export interface Settings {
  edition: EditionId;
  setup: SetupName;
  /** The side for the next game against Thoth. */
  side: '0' | '1' | 'random';
  /** 1 to LEVEL_COUNT. */
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
  /**
   * The danger map on the board (src/core/threats.ts): `against` what the opponent's beam could
   * hit after one move ("what can hit me"), `for` what the side to move can hit; off when unset.
   */
  danger?: DangerView;
  /**
   * The analysis lines and the eval bar's label show the win chance (W/D/L or a win percentage)
   * instead of the score; the score when unset.
   */
  showWin?: boolean;
}

/** Which beam the danger map shows, if any. */
export type DangerView = 'off' | 'against' | 'for';
export const DANGER_VIEWS: readonly DangerView[] = ['off', 'against', 'for'];

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
  /** Can Thoth play here now (connected, ready, an engine of its own from the server)? */
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
  /**
   * The moves the analysis is restricted to (`go searchmoves`, only-moves.ts), in the position
   * `at` (analysis-lines.ts, shownPositionKey) only; none when unset.
   */
  only?: OnlyMoves | null;
  /** A message for the person (replaces the hint until the next action). */
  message: string;
  /**
   * The person picked a Setup since this board was set up: over a position of its own (a KFEN, a
   * record's start) the Setup list then shows that pick (for New game), not "Custom position".
   */
  setupChosen?: boolean;
  bannerClosed: boolean;
  /**
   * The board editor, while it is open (editor.ts): the board takes its clicks, drops, turns and
   * keys, and the game under it stands still until it closes.
   */
  editor?: EditorState | null;
  /**
   * Drawing by clicks and keys (drawings.ts), while it is on: a square picked, then another, make
   * an arrow (the same one twice a circle) in `color`; `from` is the first square picked, or -1.
   */
  drawMode?: { color: ShapeColor; from: number } | null;
}

/** The analysis restricted to some moves of one position (only-moves.ts). */
export interface OnlyMoves {
  /** The position's key (analysis-lines.ts, shownPositionKey). */
  at: string;
  /** The moves, as records write them, in the order chosen. */
  moves: readonly string[];
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

/** What a click on the board does: move pieces about, remove them, or place the piece chosen. */
export type EditorTool = { kind: 'move' } | { kind: 'erase' } | { kind: 'piece'; color: number; piece: number };

/** The board editor's state (its transitions: editor.ts). */
export interface EditorState {
  edition: EditionId;
  /** 80 piece codes (src/core/pieces.ts), a1 first. */
  board: readonly number[];
  /** The side to move. */
  side: number;
  tool: EditorTool;
  /** The way each side's new pieces face (the last turn given to one of its pieces). */
  facing: readonly [number, number];
  /** The square whose piece the rotate buttons and keys turn, or -1. */
  selected: number;
}
