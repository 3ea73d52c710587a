/**
 * Drawing everything around the board from the state. Each function reads the state and writes its
 * part of the DOM; none changes the state. The panels live by what they show: player-bars.ts
 * (players and clocks), game-card.ts (toolbar, banner, draw offer, hint), move-list.ts,
 * analysis-card.ts (thinking, lines, eval bar, graph, review), engine-status.ts, settings-form.ts
 * and help-card.ts; this module keeps the record box (the KFEN field and its message).
 */
import type { Dom } from './dom';

export function renderIO(dom: Dom, kfen: string): void {
  if (dom.kfen.dataset.shown !== kfen && document.activeElement !== dom.kfen) {
    dom.kfen.value = kfen;
    dom.kfen.dataset.shown = kfen;
  }
}

export function ioMessage(dom: Dom, text: string, error = false): void {
  dom.ioMsg.textContent = text;
  dom.ioMsg.classList.toggle('error', error);
}

// The panels, kept importable from here for the controller's imports.
export { renderPlayers, renderClocks } from './player-bars';
export { renderToolbar, renderBanner, renderOffer, renderHint } from './game-card';
export { renderMoves } from './move-list';
export { lineEvals, renderThinking, renderAnalysis, renderEvalBar, renderGraph, renderReview } from './analysis-card';
export { engineStatus, renderStatus } from './engine-status';
export { renderForm } from './settings-form';
export { renderLegend, renderKeys } from './help-card';
