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
  | 'take-back'
  | 'draw-mode'
  | `color-${'G' | 'R' | 'B' | 'Y'}`
  | `nag-${1 | 2 | 3 | 4 | 5 | 6}`;

export interface KeyContext {
  key: string;
  /** A modifier (Ctrl, Alt, Meta) is held: the browser's shortcut, not ours. */
  modifier: boolean;
  /** The board has the focus (arrows move its cursor). */
  onBoard: boolean;
  /** Typing in a field, or a button/line that handles Enter and Space itself. */
  inField: boolean;
  onButton: boolean;
  /** Drawing by picks is on (G R B Y pick its colour). */
  drawing?: boolean;
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
  a: 'draw-mode',
  A: 'draw-mode',
  // the move marks by their NAG numbers ($1 !, $2 ?, $3 !!, $4 ??, $5 !?, $6 ?!)
  '1': 'nag-1',
  '2': 'nag-2',
  '3': 'nag-3',
  '4': 'nag-4',
  '5': 'nag-5',
  '6': 'nag-6',
};

/** While drawing by picks: the colour keys, as lichess's colours (green, red, blue, yellow). */
const DRAWING_KEYS: Record<string, KeyAction> = {
  g: 'color-G',
  G: 'color-G',
  r: 'color-R',
  R: 'color-R',
  b: 'color-B',
  B: 'color-B',
  y: 'color-Y',
  Y: 'color-Y',
};

export function keyAction(k: KeyContext): KeyAction | null {
  if (k.inField || k.modifier) return null;
  if (k.onBoard && BOARD_KEYS[k.key]) return BOARD_KEYS[k.key];
  if (k.onButton && (k.key === 'Enter' || k.key === ' ')) return null;
  if (k.drawing && DRAWING_KEYS[k.key]) return DRAWING_KEYS[k.key];
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
    'A, then squares',
    'draw: A turns drawing on (or off); pick a square, then another (click, tap, or Enter on the cursor) for an arrow, the same one twice for a circle; G R B Y its colour; Esc drops the first square, then stops (a right-drag draws too)',
  ],
  ['1 to 6', 'mark the shown move: 1 !, 2 ?, 3 !!, 4 ??, 5 !?, 6 ?! (again takes it off; Analysis or a finished game)'],
  [
    'In the editor',
    'on the board: a KFEN letter places that piece at the cursor or the selected square (P a first-player Pyramid, k a second-player Pharaoh), again turns it; Delete removes it; Esc drops the selection, then closes the editor',
  ],
  ['Move box', 'under the move list: type a move (c1d2, h2+, h2-, d1e2u), Enter plays it'],
];
