/**
 * The keyboard: which key does what, as data. `keyAction` is pure (a key and where it was
 * pressed in, an action out); the controller runs the action.
 */

export type KeyAction =
  | 'cursor-up'
  | 'cursor-down'
  | 'cursor-left'
  | 'cursor-right'
  | 'cursor-enter'
  | 'rotate-cw'
  | 'rotate-ccw'
  | 'stack-toggle'
  | 'escape'
  | 'first'
  | 'last'
  | 'prev'
  | 'next'
  | 'flip'
  | 'danger'
  | 'editor'
  | 'take-back';

export interface KeyContext {
  key: string;
  /** A modifier (Ctrl, Alt, Meta) is held: the browser's shortcut, not ours. */
  modifier: boolean;
  /** The board has the focus (arrows move its cursor). */
  onBoard: boolean;
  /** Typing in a field, or a button/line that handles Enter and Space itself. */
  inField: boolean;
  onButton: boolean;
}

const BOARD_KEYS: Record<string, KeyAction> = {
  ArrowUp: 'cursor-up',
  ArrowDown: 'cursor-down',
  ArrowLeft: 'cursor-left',
  ArrowRight: 'cursor-right',
  Enter: 'cursor-enter',
  ' ': 'cursor-enter',
};

const PAGE_KEYS: Record<string, KeyAction> = {
  '+': 'rotate-cw',
  ']': 'rotate-cw',
  '=': 'rotate-cw',
  '-': 'rotate-ccw',
  '[': 'rotate-ccw',
  u: 'stack-toggle',
  U: 'stack-toggle',
  Escape: 'escape',
  Home: 'first',
  End: 'last',
  PageUp: 'prev',
  ArrowLeft: 'prev',
  PageDown: 'next',
  ArrowRight: 'next',
  f: 'flip',
  F: 'flip',
  t: 'take-back',
  T: 'take-back',
  d: 'danger',
  D: 'danger',
  e: 'editor',
  E: 'editor',
};

export function keyAction(k: KeyContext): KeyAction | null {
  if (k.inField || k.modifier) return null;
  if (k.onBoard && BOARD_KEYS[k.key]) return BOARD_KEYS[k.key];
  if (k.onButton && (k.key === 'Enter' || k.key === ' ')) return null;
  return PAGE_KEYS[k.key] ?? null;
}

/** The keys as the help card lists them. */
export const KEY_HELP: [string, string][] = [
  [
    'Tab, arrows, Enter',
    'keyboard play on the board (Tab into it, or ↑ ↓ Enter on it): move the cursor, pick a piece, move it',
  ],
  ['+ or ], - or [', 'rotate the selected piece'],
  ['U', 'Khet 1.0: whole stack or top obelisk'],
  ['Esc', 'drop the selection, leave a preview, skip the shot on show'],
  ['← →, Home, End', 'go through the moves (PgUp/PgDn too; also after a click on the board)'],
  ['F, T', 'flip the board, take back'],
  ['D', 'danger map: what can hit the side to move, what it can hit, off'],
  ['E', 'set up a position (the board editor)'],
  [
    'In the editor',
    'on the board: a KFEN letter places that piece at the cursor or the selected square (P a first-player Pyramid, k a second-player Pharaoh), again turns it; Delete removes it; Esc drops the selection, then closes the editor',
  ],
  ['Move box', 'under the move list: type a move (c1d2, h2+, h2-, d1e2u), Enter plays it'],
];
