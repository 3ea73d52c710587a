/**
 * The board editor's card (state/editor.ts is its pure part): the edition and where to start from,
 * the pieces to place (each side's, facing the way its next piece will), moving and removing, the
 * turns, the side to move, what is wrong with the board in words, its KFEN, and the ways out —
 * *Analyse*, *Play from here against Thoth* (colour, clock, level), *Continue this game from here*
 * and *Cancel*. While it is open the page's other controls of the game step aside (body.editing).
 */
import {
  EDITIONS,
  OBELISK,
  PHARAOH,
  SCARAB,
  SPHINX,
  STACK,
  makePiece,
  setupsOf,
  type EditionId,
} from '../../../core/index';
import { editorKfen, editorProblems, type EditorState, type EditorTool } from '../state/editor';
import type { PageState } from '../state/state-types';
import { pieceSvg, pieceTitle } from './board-svg';
import type { Dom } from './dom';

/** The kinds a side places, in the order of the palette (a stack is two obelisks: an obelisk on an obelisk). */
const PALETTE_KINDS = [PHARAOH, SPHINX, 3, 4, SCARAB, OBELISK];

/** A tool as the palette's buttons name it: `move`, `erase`, or `piece:<colour>:<kind>`. */
function toolKey(t: EditorTool): string {
  return t.kind === 'piece' ? `piece:${t.color}:${t.piece}` : t.kind;
}

export function toolFromKey(key: string): EditorTool | null {
  if (key === 'move' || key === 'erase') return { kind: key };
  const m = /^piece:([01]):(\d)$/.exec(key);
  return m ? { kind: 'piece', color: Number(m[1]), piece: Number(m[2]) } : null;
}

/** The palette's buttons for an edition, each side's pieces facing the way its next piece will. */
function paletteHtml(e: EditorState): string {
  const ed = EDITIONS[e.edition];
  const button = (key: string, inner: string, title: string): string =>
    `<button type="button" data-tool="${key}" title="${title}" aria-label="${title}" aria-pressed="false">${inner}</button>`;
  const out: string[] = [];
  for (const c of [0, 1]) {
    // a row a side: a tool first, then the side's pieces
    out.push(
      c === 0
        ? button('move', '✥', 'Move pieces: click one, then a square (or drag it); drag it off the board to remove it')
        : button('erase', '✕', 'Remove pieces: click them (a stack loses its top obelisk)'),
    );
    for (const kind of PALETTE_KINDS) {
      if (!ed.kinds[kind]) continue;
      const p = makePiece(c, kind, kind === SPHINX ? (c === 0 ? 0 : 2) : e.facing[c]);
      const key = toolKey({ kind: 'piece', color: c, piece: kind });
      const what = kind === OBELISK && ed.kinds[STACK] ? ' (on another: a stack)' : '';
      out.push(button(key, pieceSvg(p, 28), `Place a ${pieceTitle(p, ed)}${what}`));
    }
  }
  return out.join('');
}

/** Where the editor may start from: the position shown, an empty board, each setup of the edition. */
function startOptions(edition: EditionId): string {
  const setups = setupsOf(edition).map(
    (n) => `<option value="setup:${n}">${n[0].toUpperCase() + n.slice(1)} setup</option>`,
  );
  return [
    '<option value="">Choose…</option>',
    '<option value="current">The position shown</option>',
    '<option value="empty">An empty board</option>',
    ...setups,
  ].join('');
}

/** A select's options copied from another (the game card's clocks and levels), its value kept. */
export function copyOptions(to: HTMLSelectElement, from: HTMLSelectElement, value: string): void {
  if (to.dataset.from !== from.innerHTML) {
    to.innerHTML = from.innerHTML;
    to.dataset.from = from.innerHTML;
    to.value = value;
  }
}

export function renderEditor(d: Dom, s: PageState): void {
  const e = s.editor ?? null;
  document.body.classList.toggle('editing', e !== null);
  d.editorCard.hidden = e === null;
  d.btnEditor.disabled = e !== null;
  if (!e) return;
  const ed = EDITIONS[e.edition];
  d.edEdition.value = e.edition;
  if (d.edStart.dataset.edition !== e.edition) {
    d.edStart.innerHTML = startOptions(e.edition);
    d.edStart.dataset.edition = e.edition;
  }
  d.edStart.value = '';
  const paletteKey = `${e.edition}|${e.facing.join(',')}`;
  if (d.edPalette.dataset.key !== paletteKey) {
    d.edPalette.innerHTML = paletteHtml(e);
    d.edPalette.style.gridTemplateColumns = `repeat(${1 + PALETTE_KINDS.filter((k) => ed.kinds[k]).length}, minmax(0, 1fr))`;
    d.edPalette.dataset.key = paletteKey;
  }
  const chosen = toolKey(e.tool);
  for (const b of Array.from(d.edPalette.querySelectorAll<HTMLButtonElement>('[data-tool]')))
    b.setAttribute('aria-pressed', String(b.dataset.tool === chosen));
  for (const r of d.edSides) r.checked = Number(r.value) === e.side;
  d.edSideNames.forEach((n, c) => {
    n.textContent = ed.colorNames[c];
  });
  const p = e.selected >= 0 ? e.board[e.selected] : 0;
  d.edRotCw.disabled = d.edRotCcw.disabled = p === 0 && e.tool.kind !== 'piece';
  const problems = editorProblems(e);
  d.edProblems.classList.toggle('ok', problems.length === 0);
  d.edProblems.replaceChildren(
    ...(problems.length === 0 ? [{ text: 'A position to play from.' }] : problems).map((x) => {
      const li = document.createElement('li');
      li.textContent = x.text;
      return li;
    }),
  );
  if (document.activeElement !== d.edKfen) d.edKfen.value = editorKfen(e);
  for (const b of [d.edAnalyse, d.edPlay, d.edContinue]) {
    b.disabled = problems.length > 0;
    b.title = problems.length > 0 ? `Not yet: ${problems[0].text}` : '';
  }
  d.edContinue.hidden = s.tree.children.length === 0 && s.mode === 'analysis';
  d.edYou.innerHTML = [0, 1]
    .map((c) => `<option value="${c}">${ed.colorNames[c]}</option>`)
    .concat('<option value="random">Either</option>')
    .join('');
  d.edYou.value = d.edYou.dataset.value ?? s.settings.side;
  copyOptions(d.edTc, d.tc, s.settings.tc);
  copyOptions(d.edLevel, d.level, String(s.settings.level));
}
