/** The help cards: the pieces of an edition, drawn, with what they do, and the keys. */
import {
  ANUBIS,
  EDITIONS,
  OBELISK,
  PHARAOH,
  PYRAMID,
  SCARAB,
  SPHINX,
  STACK,
  colorOf,
  kindOf,
  parseKfen,
  setupKfen,
  type EditionId,
} from '../../../core/index';
import { pieceSvg } from './board';
import type { Dom } from './dom';
import { KEY_HELP } from './keys';
import { escapeHtml } from './panel-html';

const PIECE_WORDS: Record<number, string> = {
  [PHARAOH]: 'Pharaoh — the king: hit it and its side loses.',
  [SPHINX]: 'Sphinx — your laser; it turns but never moves.',
  [PYRAMID]: 'Pyramid — one mirror; its other sides are hit.',
  [SCARAB]: 'Scarab — two mirrors, never hit; it may swap places with a Pyramid or Anubis next to it.',
  [ANUBIS]: 'Anubis — its shield (front) stops the beam; its other sides are hit.',
  [OBELISK]: 'Obelisk — no mirror; stacked in two in Khet 1.0 (a hit takes the top one).',
};

/** Where an edition's pieces differ from Khet 2.0's words. */
const EDITION_WORDS: Partial<Record<EditionId, Record<number, string>>> = {
  khet1: {
    [SCARAB]:
      'Djed — two mirrors, never hit; it may swap places with a Pyramid or an Obelisk (single or stack) next to it.',
  },
  deflexion: {
    [SCARAB]: 'Djed — two mirrors, never hit; it may swap places with a Pyramid or an Obelisk next to it.',
    [OBELISK]: 'Obelisk — no mirror; a hit removes it.',
  },
};

/** The rules card's words on reserved squares, per edition. */
const RESERVED_WORDS: Record<EditionId, string> = {
  khet2: 'Coloured squares with an ankh or an eye are reserved: only that colour may stand there.',
  khet1: 'Coloured squares with an ankh or an eye are reserved: only that colour may stand there.',
  deflexion: 'The lasers\u2019 files are reserved: Gold may not enter file a, Silver may not enter file j.',
};

/** The pieces of an edition, drawn, with what they do. */
export function renderLegend(dom: Dom, edition: EditionId): void {
  if (dom.legend.dataset.edition === edition) return;
  const kfen = setupKfen(edition, 'classic');
  const pos = kfen ? parseKfen(kfen, edition) : null;
  const kinds = new Map<number, number>();
  // The first player's pieces, as they stand at the start.
  if (pos?.ok) {
    for (const p of pos.value.board) {
      if (p === 0 || colorOf(p) !== 0) continue;
      const k = kindOf(p) === STACK ? OBELISK : kindOf(p);
      if (!kinds.has(k)) kinds.set(k, kindOf(p) === STACK ? p - 4 : p);
    }
  }
  const ed = EDITIONS[edition];
  const rows = [...kinds.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, p]) => {
      let words = EDITION_WORDS[edition]?.[k] ?? PIECE_WORDS[k] ?? '';
      if (k === SCARAB && ed.scarabLetter === 'D') words = words.replace('Scarab', 'Djed');
      return `<div class="legend-row" data-kind="${k}">${pieceSvg(p, 30)}<span>${escapeHtml(words)}</span></div>`;
    });
  if (!ed.sphinx)
    rows.push(
      `<div class="legend-row" data-kind="laser"><span class="laser-swatch"></span><span>Lasers are fixed in the board's corners and fire along its edge.</span></div>`,
    );
  dom.legend.innerHTML = rows.join('');
  dom.legend.dataset.edition = edition;
  const reserved = document.getElementById('rules-reserved');
  if (reserved) reserved.textContent = RESERVED_WORDS[edition];
}

export function renderKeys(dom: Dom): void {
  dom.keys.innerHTML = KEY_HELP.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('');
}
