/**
 * The notes on the shown move, under the move list (state/move-notes.ts, state/drawings.ts): its
 * comment box (its words kept as they are typed, on Enter, and on leaving it; Esc leaves it), the move marks
 * and position signs as toggle buttons, and drawing by picks with its colours. Shown where notes
 * are open: in Analysis and on a game that is over.
 */
import { SHAPE_COLORS, type ShapeColor } from '../../../core/index';
import { notesOpen, setDrawColor, toggleDrawMode } from '../state/drawings';
import {
  MOVE_MARKS,
  POSITION_SIGNS,
  nagLocked,
  noteWords,
  setComment,
  shownMoveNags,
  toggleNag,
} from '../state/move-notes';
import type { PageState } from '../state/state-types';
import { nodeAt, pathKey, type Path } from '../state/tree';
import type { Dom } from './dom';

const COLOR_NAMES: Record<ShapeColor, string> = { G: 'green', R: 'red', Y: 'yellow', B: 'blue' };
const SIGN_WORDS: Record<number, string> = {
  10: 'equal position',
  13: 'unclear position',
  14: 'the first player is slightly better',
  15: 'the second player is slightly better',
  16: 'the first player is better',
  17: 'the second player is better',
  18: 'the first player is winning',
  19: 'the second player is winning',
};
const MOVE_MARK_WORDS: Record<number, string> = {
  1: 'good move',
  2: 'mistake',
  3: 'brilliant move',
  4: 'blunder',
  5: 'interesting move',
  6: 'dubious move',
};

/** What the notes need of the page. */
interface NotesHost {
  readonly dom: Dom;
  readonly state: PageState;
  update(f: (s: PageState) => PageState): void;
}

/** How long after the last key typed the comment is kept. */
const TYPING_MS = 400;

const parsePath = (key: string): Path => (key === '' ? [] : key.split('.').map(Number));

/** Makes the buttons and wires the box. */
export function wireNotes(page: NotesHost): void {
  const d = page.dom;
  const nagButton = (nag: number, glyph: string, words: string): HTMLButtonElement => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = glyph;
    b.dataset.nag = String(nag);
    b.dataset.words = words;
    b.setAttribute('aria-label', words);
    b.setAttribute('aria-pressed', 'false');
    b.onclick = () => page.update((x) => toggleNag(x, nag));
    return b;
  };
  d.noteMarks.replaceChildren(...MOVE_MARKS.map(([n, g]) => nagButton(n, g, `${MOVE_MARK_WORDS[n]} (key ${n})`)));
  d.noteSigns.replaceChildren(...POSITION_SIGNS.map(([n, g]) => nagButton(n, g, SIGN_WORDS[n])));
  d.noteColors.replaceChildren(
    ...SHAPE_COLORS.map((c) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = '●';
      b.className = `swatch-${c}`;
      b.dataset.color = c;
      b.title = `Draw in ${COLOR_NAMES[c]} (key ${c})`;
      b.setAttribute('aria-label', `Draw in ${COLOR_NAMES[c]}`);
      b.onclick = () => page.update((x) => setDrawColor(x.drawMode ? x : toggleDrawMode(x), c));
      return b;
    }),
  );
  d.noteDraw.onclick = () => page.update(toggleDrawMode);
  const box = d.noteText;
  // The words are kept for the move they were typed on (the box knows its path): as they are
  // typed (a moment after the last key, as lichess keeps them), on Enter, and when the box is
  // left. Kept only on leaving, the comment appearing under its move would push the page down
  // under the finger that leaves the box with a tap on a button below it.
  let typing: ReturnType<typeof setTimeout> | null = null;
  const keep = (): void => {
    if (typing) clearTimeout(typing);
    typing = null;
    const path = parsePath(box.dataset.path ?? '');
    page.update((x) => setComment(x, path, box.value));
  };
  box.addEventListener('input', () => {
    if (typing) clearTimeout(typing);
    typing = setTimeout(keep, TYPING_MS);
  });
  box.addEventListener('blur', keep);
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      keep();
      box.blur();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      box.blur();
    }
  });
  d.noteClear.onclick = () => {
    box.value = '';
    keep();
  };
}

export function renderNotes(d: Dom, s: PageState): void {
  const open = notesOpen(s);
  d.notes.hidden = !open;
  if (!open) return;
  const node = nodeAt(s.tree, s.path);
  const key = pathKey(s.path);
  const box = d.noteText;
  // the box is not written over while the person types in it (for the move it was opened on)
  if (document.activeElement !== box || box.dataset.path !== key) {
    box.value = noteWords(node?.comment);
    box.dataset.path = key;
  }
  d.noteClear.disabled = noteWords(node?.comment) === '';
  const shown = shownMoveNags(s);
  for (const b of Array.from(d.notes.querySelectorAll<HTMLButtonElement>('button[data-nag]'))) {
    const nag = Number(b.dataset.nag);
    const locked = nagLocked(s, nag);
    b.setAttribute('aria-pressed', String(shown.includes(nag)));
    b.disabled = locked !== null;
    b.title = locked ?? `${b.textContent}: ${b.dataset.words}`;
  }
  const drawing = s.drawMode ?? null;
  d.noteDraw.setAttribute('aria-pressed', String(drawing !== null));
  for (const b of Array.from(d.noteColors.querySelectorAll<HTMLButtonElement>('button')))
    b.setAttribute('aria-pressed', String(drawing?.color === b.dataset.color));
  // why some marks are the review's, else how drawing by picks goes
  const locked = nagLocked(s, 1) ?? nagLocked(s, 2);
  d.noteMsg.textContent =
    locked ??
    (drawing
      ? `Drawing in ${COLOR_NAMES[drawing.color]}: ${drawing.from >= 0 ? 'now the arrow’s end (the same square for a circle)' : 'pick a square, then another'}. A or Draw stops.`
      : '');
}
