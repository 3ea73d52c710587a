/**
 * The engine's side of the panels: Thoth's thinking during play, the analysis card (its lines,
 * updated in place, and a previewed line), the eval bar, the evaluation graph and the review's
 * table.
 */
import { plural } from '../../../core/plural';
import { gameStatus, legalMoves, type Position } from '../../../core/index';
import type { GraphMark } from '../../../analysis/svg-graph';
import type { Dom } from './dom';
import type { EngineClient } from '../engine/engine-client';
import { chanceText, evalText, winText } from '../state/evaluation';
import { currentReview, gameReview, mainlineWins, shownWin } from '../state/gamereview';
import { colorNames, endPosition, viewPosition } from '../state/state-queries';
import { graphSvg } from './graph';
import { escapeHtml, setHtml } from './panel-html';
import { onlyMoves, shownLines } from '../state/analysis-lines';
import type { PageState } from '../state/state-types';
import type { InfoLine } from '../../../core/info';
import { isMainline, mainlineLength, pathKey } from '../state/tree';

function pvText(pos: Position, pv: string[], limit = 12): string {
  let num = pos.moveNumber;
  let side = pos.side;
  const words: string[] = [];
  pv.slice(0, limit).forEach((m, i) => {
    if (side === 0) words.push(`${num}.`);
    else if (i === 0) words.push(`${num}…`);
    words.push(m);
    if (side === 1) num++;
    side ^= 1;
  });
  if (pv.length > limit) words.push('…');
  return words.join(' ');
}

/**
 * Thoth's evaluation of each move that begins one of the shown analysis lines, as the lines write
 * it (the first player's point of view): the explorer's Eval column.
 */
export function lineEvals(s: PageState): Map<string, string> {
  const pos = viewPosition(s);
  const out = new Map<string, string>();
  for (const l of shownLines(s)) {
    const move = l.pv[0];
    if (move !== undefined && !out.has(move))
      out.set(move, evalText({ kind: l.score.kind, value: pos.side === 0 ? l.score.value : -l.score.value }));
  }
  return out;
}

function formatCount(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : String(n);
}

/** Thoth's thinking during play: only with the option on (it would give its plan away). */
export function renderThinking(dom: Dom, s: PageState, thinkingNow: boolean): void {
  let t = '';
  if (s.mode === 'engine' && thinkingNow) {
    const i = s.thinking;
    const pos = endPosition(s);
    if (s.settings.showThinking && i) {
      t = `Thoth thinks · depth ${i.depth} · ${evalText({ kind: i.score.kind, value: pos.side === 0 ? i.score.value : -i.score.value })} · ${pvText(pos, i.pv, 4)}`;
    } else t = 'Thoth thinks…';
  }
  if (dom.thinking.textContent !== t) dom.thinking.textContent = t;
}

/** What one analysis line shows. */
interface LineView {
  previewing: boolean;
  /** The line's first move, and whether the analysis is restricted to it (among others). */
  first: string;
  picked: boolean;
  score: string;
  depth: string;
  pv: string;
}

/**
 * The analysis lines, updated in place: a line's element stays while the engine refines it, so a
 * click whose press and release straddle an update (several a second while Thoth thinks) still
 * lands on one element and counts.
 */
function renderLines(list: HTMLElement, views: LineView[]): void {
  while (list.children.length > views.length) list.lastElementChild!.remove();
  while (list.children.length < views.length) {
    const i = list.children.length;
    const li = document.createElement('li');
    li.dataset.line = String(i);
    li.tabIndex = 0;
    li.setAttribute('role', 'button');
    li.setAttribute('aria-label', `Line ${i + 1}: preview it`);
    for (const c of ['score', 'depth', 'pv']) {
      const span = document.createElement('span');
      span.className = c;
      li.append(span);
    }
    // ◎: the analysis restricted to this line's first move (added to those picked), or that move taken out
    const only = document.createElement('button');
    only.type = 'button';
    only.className = 'only';
    only.textContent = '◎';
    li.append(only);
    list.append(li);
  }
  views.forEach((v, i) => {
    const li = list.children[i] as HTMLElement;
    const cls = v.previewing ? 'line previewing' : 'line';
    if (li.className !== cls) li.className = cls;
    const [score, depth, pv, only] = Array.from(li.children) as HTMLElement[];
    if (only.dataset.move !== v.first || only.getAttribute('aria-pressed') !== String(v.picked)) {
      only.dataset.move = v.first;
      only.setAttribute('aria-pressed', String(v.picked));
      const what = v.picked ? `Analyse every picked move but ${v.first}` : `Analyse only ${v.first}`;
      only.title = what;
      only.setAttribute('aria-label', what);
    }
    if (score.textContent !== v.score) score.textContent = v.score;
    if (depth.textContent !== v.depth) depth.textContent = v.depth;
    if (pv.textContent !== v.pv) pv.textContent = v.pv;
  });
}

/**
 * A line's score as the lines write it, from the first player's view: the score with the win
 * chance beside it (`+1.20 · 61/24/15`), or the win chance alone when the person asked for it.
 */
function lineScoreText(l: InfoLine, sideToMove: number, showWin: boolean): string {
  const chance = chanceText(l, sideToMove);
  if (showWin) return chance;
  return `${evalText({ kind: l.score.kind, value: sideToMove === 0 ? l.score.value : -l.score.value })} · ${chance}`;
}

export function renderAnalysis(dom: Dom, s: PageState, engine: EngineClient, running: boolean): void {
  dom.analysisCard.hidden = s.mode !== 'analysis';
  if (dom.analysisCard.hidden) return;
  const pos = viewPosition(s);
  const over = gameStatus(pos).result !== 'ongoing';
  dom.analyse.textContent = s.analysing ? 'Stop' : 'Analyse';
  // No Stop (or Analyse) for an engine this page does not hold (the server had none for it, or is gone).
  dom.analyse.hidden = !engine.ready;
  dom.analyse.setAttribute('aria-pressed', String(s.analysing));
  dom.analyse.disabled = over;
  const lines = shownLines(s);
  dom.lines.dataset.state = running ? 'running' : 'stopped';
  // the analysis restricted to the moves picked: said above the lines while it is on
  const only = onlyMoves(s);
  dom.onlyNote.hidden = only.length === 0;
  dom.onlyClear.hidden = only.length === 0;
  dom.lines.dataset.only = only.join(' ');
  const note = `Analysing only ${only.join(', ')} (${plural(only.length, 'move')} of ${legalMoves(pos).length}): the lines and their scores are these moves' alone.`;
  if (only.length > 0 && dom.onlyNote.textContent !== note) dom.onlyNote.textContent = note;
  if (document.activeElement !== dom.onlyInput) dom.onlyInput.value = only.join(' ');
  const first = lines[0];
  dom.analysisInfo.textContent = over
    ? 'the game is over here'
    : !engine.ready
      ? 'the engine is not ready'
      : first
        ? `depth ${first.depth}${first.nodes ? ` · ${formatCount(first.nodes)} nodes` : ''}${running ? '' : ' · stopped'}`
        : running
          ? 'thinking…'
          : 'stopped';
  const showWin = s.settings.showWin === true;
  dom.winChance.setAttribute('aria-pressed', String(showWin));
  renderLines(
    dom.lines,
    lines.map((l, i) => ({
      previewing: s.preview?.index === i,
      first: l.pv[0] ?? '',
      picked: only.includes(l.pv[0] ?? ''),
      score: lineScoreText(l, pos.side, showWin),
      depth: `d${l.depth}`,
      pv: pvText(pos, l.pv),
    })),
  );
  dom.previewBar.hidden = !s.preview;
  if (s.preview) {
    const p = s.preview;
    dom.previewText.textContent = `Line ${p.index + 1}, move ${p.k} of ${p.pv.length}: ${pvText(pos, p.pv.slice(0, p.k), 40)}`;
  }
  dom.review.disabled = mainlineLength(s.tree) === 0 || currentReview(s) !== null;
  dom.variationTools.hidden = s.path.length === 0;
  dom.promote.disabled = isMainline(s.path);
}

// ---- the eval bar, the graph, the review ---------------------------------------------------

/** The eval bar beside the board (analysis): the first player's win chance in the shown position. */
export function renderEvalBar(dom: Dom, s: PageState): void {
  const w = s.mode === 'analysis' ? shownWin(s) : null;
  dom.evalbar.hidden = s.mode !== 'analysis';
  if (dom.evalbar.hidden) return;
  const fill = dom.evalbar.querySelector<HTMLElement>('.evalbar-fill');
  const label = dom.evalbar.querySelector<HTMLElement>('.evalbar-text');
  const shown = w ?? 0.5;
  // The first player's share grows from the bottom when they sit at the bottom.
  if (fill) {
    fill.style.height = `${(100 * shown).toFixed(1)}%`;
    fill.style.top = s.flipped ? '0' : '';
    fill.style.bottom = s.flipped ? '' : '0';
  }
  const e = s.evals[pathKey(s.path)];
  if (label) label.textContent = !e ? '' : s.settings.showWin ? winText(shown) : evalText(e);
  dom.evalbar.title = s.settings.showWin ? 'Click to show the score' : 'Click to show the win chance';
  dom.evalbar.dataset.win = w === null ? '' : shown.toFixed(3);
}

export function renderGraph(dom: Dom, s: PageState): void {
  if (s.mode !== 'analysis' || mainlineLength(s.tree) === 0) {
    setHtml(dom.graph, '');
    return;
  }
  const wins = mainlineWins(s);
  const onMain = isMainline(s.path);
  const g = gameReview(s);
  const marks: GraphMark[] = g
    ? g.plies.filter((p) => p.judgement).map((p) => ({ ply: p.ply, judgement: p.judgement! }))
    : [];
  setHtml(dom.graph, wins.some((w) => w !== null) ? graphSvg(wins, onMain ? s.path.length : -1, marks) : '');
}

export function renderReview(dom: Dom, s: PageState, engineName: string): void {
  const r = currentReview(s);
  dom.reviewBox.hidden = s.mode !== 'analysis' || !r;
  if (dom.reviewBox.hidden || !r) return;
  const g = gameReview(s);
  if (!g) {
    const done = r.scores.filter((x) => x !== undefined).length;
    setHtml(
      dom.reviewBox,
      `<div class="muted progress">${escapeHtml(engineName || 'Thoth')} reviews the game… ${done} of ${r.scores.length} positions</div>`,
    );
    return;
  }
  const names = colorNames(s);
  const row = (c: 0 | 1): string => {
    const x = g.sides[c];
    const acc = Number.isNaN(x.accuracy) ? '–' : `${Math.round(x.accuracy)}%`;
    const counts = `${plural(x.blunders, 'blunder')}, ${plural(x.mistakes, 'mistake')}, ${plural(x.inaccuracies, 'inaccuracy', 'inaccuracies')}`;
    return `<span class="who">${escapeHtml(names[c])}</span><span class="counts" title="${counts}">${x.blunders} ?? · ${x.mistakes} ? · ${x.inaccuracies} ?!</span><span class="acc" data-side="${c}">${acc}</span>`;
  };
  setHtml(
    dom.reviewBox,
    `<span class="muted">Review</span><span class="muted">?? · ? · ?!</span><span class="muted">accuracy</span>${row(0)}${row(1)}`,
  );
}
