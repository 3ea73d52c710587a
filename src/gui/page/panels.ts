/**
 * Drawing everything around the board from the state: players and clocks, the toolbar, the move
 * list (with variations), the engine lines, the result strip, the status and the hint. Each
 * function reads the state and writes its part of the DOM; none changes the state.
 */
import { plural } from '../../core/plural';
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
  gameStatus,
  kindOf,
  parseKfen,
  setupKfen,
  setupsOf,
  type EditionId,
  type Position,
} from '../../core/index';
import { pieceSvg } from './board';
import { clockText, timeLeft } from './clock';
import type { Dom, PlayerBar } from './dom';
import { evalText } from './evaluation';
import { currentReview, gameReview, mainlineWins, reviewAdvice, reviewNags, shownWin } from './gamereview';
import { shownNags } from './marks';
import type { GraphMark } from '../../analysis/svg-graph';
import { graphSvg } from './graph';
import type { EngineClient } from './engine-client';
import { KEY_HELP } from './keys';
import type { Level } from './levels';
import { materialLeadHtml } from './material';
import { isStack } from './selection';
import {
  aimedOwnLoss,
  aimedShot,
  atEnd,
  premovePosition,
  colorNames,
  drawClaim,
  endPosition,
  gameLength,
  gameResult,
  humanMayMove,
  isOver,
  shownLines,
  viewPosition,
  type PageState,
} from './state';
import {
  childrenAt,
  isMainline,
  mainlineLength,
  nodeAt,
  pathKey,
  samePath,
  type GameTree,
  type MoveNode,
  type Path,
} from './tree';

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** Sets innerHTML only when it changed (keeps focus, hover and scrolling). */
function setHtml(e: HTMLElement, html: string): boolean {
  if (e.dataset.html === html) return false;
  e.innerHTML = html;
  e.dataset.html = html;
  return true;
}

// ---- move numbers --------------------------------------------------------------------------

export interface MoveLabel {
  /** The move number as the list shows it. */
  number: number;
  side: number;
  /** `15.` before a first-player move, `15…` before a second-player move. */
  prefix: string;
  text: string;
}

/** The number and side of the move that leads to `path`. */
function moveLabel(tree: GameTree, path: Path): MoveLabel | null {
  const n = nodeAt(tree, path);
  if (!n) return null;
  const start = parseKfen(tree.startKfen, tree.edition);
  const side0 = start.ok ? start.value.side : 0;
  const num0 = start.ok ? start.value.moveNumber : 1;
  const p = path.length - 1;
  const side = (side0 + p) % 2;
  const number = num0 + Math.floor((p + side0) / 2);
  return { number, side, prefix: side === 0 ? `${number}.` : `${number}…`, text: n.ply.text };
}

/** How many moves (numbered as the list numbers them) the main line holds. */
function mainlineMoveCount(tree: GameTree): number {
  const len = mainlineLength(tree);
  if (len === 0) return 0;
  return moveLabel(tree, new Array<number>(len).fill(0))?.number ?? 0;
}

// ---- players and clocks --------------------------------------------------------------------

/** A player's name outside a game against Thoth: the game's (Human reads You) or its record's White/Black tag. */
function recordName(s: PageState, c: number): string {
  const name = s.players?.[c] ?? s.tags.find(([k]) => k === (c === 0 ? 'White' : 'Black'))?.[1] ?? '';
  return name === 'Human' ? 'You' : name === '?' ? '' : name;
}

export function renderPlayers(dom: Dom, s: PageState, engineName: string, now: number): void {
  const pos = viewPosition(s);
  const names = colorNames(s);
  const lost: number[][] = [[], []];
  let children = s.tree.children;
  for (const i of s.path) {
    const n = children[i];
    if (!n) break;
    if (n.ply.killedSq >= 0) {
      const k = kindOf(n.ply.killedPiece) === STACK ? n.ply.killedPiece - 4 : n.ply.killedPiece;
      lost[colorOf(k)].push(k);
    }
    children = n.children;
  }
  const bars: [PlayerBar, number][] = [
    [dom.playerTop, s.flipped ? 0 : 1],
    [dom.playerBottom, s.flipped ? 1 : 0],
  ];
  const over = isOver(s);
  for (const [bar, c] of bars) {
    bar.root.className = `player c${c}${pos.side === c && !(over && atEnd(s)) ? ' to-move' : ''}`;
    const who =
      s.mode === 'engine'
        ? c === s.humanSide
          ? 'You'
          : engineName
            ? engineName.split(' ')[0]
            : 'Thoth'
        : recordName(s, c);
    bar.name.textContent = who ? `${who} · ${names[c]}` : names[c];
    setHtml(bar.lost, lost[c].map((p) => pieceSvg(p, 20)).join('') + materialLeadHtml(pos, c));
    renderClock(bar, s, c, now);
  }
}

export function renderClocks(dom: Dom, s: PageState, now: number): void {
  renderClock(dom.playerTop, s, s.flipped ? 0 : 1, now);
  renderClock(dom.playerBottom, s, s.flipped ? 1 : 0, now);
}

function renderClock(bar: PlayerBar, s: PageState, c: number, now: number): void {
  const clock = s.clock;
  if (!clock || s.mode === 'analysis') {
    bar.clock.hidden = true;
    return;
  }
  const left = timeLeft(clock, c, now);
  bar.clock.hidden = false;
  const t = clockText(left);
  if (bar.clock.textContent !== t) bar.clock.textContent = t;
  bar.clock.classList.toggle('running', clock.running === c);
  bar.clock.classList.toggle('low', left < 10000);
}

// ---- toolbar -------------------------------------------------------------------------------

export function renderToolbar(dom: Dom, s: PageState, rot: { cw: boolean; ccw: boolean }): void {
  const start = s.path.length === 0;
  const previewing = s.preview !== null;
  dom.navFirst.disabled = start && !previewing;
  dom.navPrev.disabled = start && !previewing;
  const more = childrenAt(s.tree, s.path).length > 0;
  dom.navNext.disabled = !more && !previewing;
  dom.navLast.disabled = !more && !previewing;
  dom.rotCw.disabled = !rot.cw;
  dom.rotCcw.disabled = !rot.ccw;
  const over = isOver(s);
  const playing = s.mode !== 'analysis';
  dom.takeBack.hidden = !playing;
  dom.takeBack.disabled = gameLength(s) === 0 || over;
  dom.takeBack.title = over ? 'The game is over: no take-backs' : 'Take back (T)';
  const pos = endPosition(s);
  const mine = s.mode === 'humans' || pos.side === s.humanSide;
  dom.resign.disabled = over;
  dom.draw.disabled = over || s.drawOffer !== null;
  dom.draw.textContent = s.drawOffer && s.mode === 'engine' ? '½ Offered' : '½ Draw';
  const claim = playing && !over && mine ? drawClaim(pos) : null;
  dom.claim.hidden = !claim;
  dom.claim.title = claim ? `Claim a draw: ${claim.text}` : '';
  for (const b of [dom.draw, dom.resign]) b.hidden = !playing;
  const vpos = viewPosition(s);
  const showStack = s.selected >= 0 && isStack(vpos, s.selected);
  dom.stack.hidden = !showStack;
  dom.stack.textContent = s.stackTop ? 'Top obelisk only' : 'Whole stack';
  dom.stack.setAttribute('aria-pressed', String(s.stackTop));
}

// ---- the move list -------------------------------------------------------------------------

/** The glyphs of the move NAGs ($1–$6). */
const NAG_GLYPHS: Record<number, string> = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };

/** A move's button; `nags` replaces the move's own marks (a main-line move under a review: marks.ts). */
function moveButton(tree: GameTree, path: Path, current: Path, nags?: readonly number[]): string {
  const n = nodeAt(tree, path) as MoveNode;
  const p = n.ply;
  const mark = p.killedSq >= 0 ? (kindOf(p.killedPiece) === PHARAOH ? '#' : '×') : '';
  const glyph = (nags ?? n.nags ?? []).map((x) => NAG_GLYPHS[x]).find(Boolean) || '';
  const tone = glyph.startsWith('!') ? 'good' : glyph === '?!' || glyph === '!?' ? 'dubious' : 'bad';
  const nag = glyph ? `<span class="nag nag-${tone}">${glyph}</span>` : '';
  const main = isMainline(path);
  const cls = `mv${samePath(path, current) ? ' current' : ''}${main ? '' : ' var'}`;
  const ply = main ? ` data-ply="${path.length}"` : '';
  const title = `${p.text}${p.killedSq >= 0 ? ': the laser removes a piece' : ''}${n.comment ? ` — ${n.comment}` : ''}`;
  // one tab stop for the whole list (a roving tabindex): the current move; ← → step from there
  const tab = samePath(path, current) || (current.length === 0 && path.length === 1 && path[0] === 0) ? '0' : '-1';
  return `<button class="${cls}" data-path="${pathKey(path)}"${ply} tabindex="${tab}" title="${escapeHtml(title)}">${p.text}${mark ? `<span class="kill">${mark}</span>` : ''}${nag}</button>`;
}

/** A variation (and the ones inside it) as inline text: `(12… d7d6 13. c1c2 (13. j1- …))`. */
function variationHtml(tree: GameTree, first: Path, current: Path): string {
  const parts: string[] = [];
  let path = first;
  let firstMove = true;
  for (;;) {
    const label = moveLabel(tree, path);
    if (!label) break;
    if (label.side === 0 || firstMove) parts.push(`<span class="vnum">${label.prefix}</span>`);
    parts.push(moveButton(tree, path, current));
    firstMove = false;
    const kids = childrenAt(tree, path);
    if (kids.length === 0) break;
    for (let i = 1; i < kids.length; i++)
      parts.push(`<span class="var-nest">(${variationHtml(tree, [...path, i], current)})</span>`);
    if (kids.length > 1) firstMove = true; // the number is repeated after a nested variation
    path = [...path, 0];
  }
  return parts.join(' ');
}

export function renderMoves(dom: Dom, s: PageState): void {
  const tree = s.tree;
  const box = dom.moves;
  const parts: string[] = [];
  const len = mainlineLength(tree);
  const reviewed = currentReview(s) !== null;
  const judged = reviewNags(s);
  let pendingNum = '';
  for (let i = 0; i < len; i++) {
    const path = new Array<number>(i + 1).fill(0);
    const label = moveLabel(tree, path) as MoveLabel;
    if (label.side === 0) {
      parts.push(`<span class="num">${label.number}.</span>`);
      pendingNum = '';
    } else if (i === 0 || pendingNum) {
      parts.push(`<span class="num">${label.number}.</span><span class="mv empty">…</span>`);
      pendingNum = '';
    }
    const own = (nodeAt(tree, path) as MoveNode).nags;
    parts.push(moveButton(tree, path, s.path, shownNags(own, reviewed, judged.get(i)) ?? []));
    const siblings = childrenAt(tree, path.slice(0, -1));
    const alternatives = siblings.length > 1;
    if (alternatives) {
      if (label.side === 0) parts.push('<span></span>');
      const vars = siblings
        .slice(1)
        .map((_, k) => `<div class="variation">(${variationHtml(tree, [...path.slice(0, -1), k + 1], s.path)})</div>`);
      parts.push(`<div class="variations">${vars.join('')}</div>`);
      if (label.side === 0) pendingNum = 'x';
    } else if (label.side === 0 && i === len - 1) {
      parts.push('<span></span>');
    }
  }
  const r = gameResult(s);
  if (r) parts.push(`<div class="result">${r.result} · ${escapeHtml(r.text)}</div>`);
  if (len === 0 && !r) parts.push('<div class="muted empty-list">No moves yet.</div>');
  // the list is one tab stop: a move that had the focus hands it on to the new current move
  const hadFocus = box.contains(document.activeElement) && document.activeElement !== box;
  const changed = setHtml(box, parts.join(''));
  if (hadFocus && changed) box.querySelector<HTMLElement>('.mv[tabindex="0"]')?.focus({ preventScroll: true });
  box.dataset.count = String(len);
  // At the end of a finished game the result under the last move comes into view too.
  if (r && atEnd(s)) {
    if (changed) box.scrollTop = box.scrollHeight;
  } else scrollToCurrent(box);
}

/** Keeps the current move in view inside the list (not the page); the start scrolls to the top. */
function scrollToCurrent(box: HTMLElement): void {
  const cur = box.querySelector<HTMLElement>('.current');
  if (!cur) {
    box.scrollTop = 0;
    return;
  }
  const top = cur.offsetTop - box.offsetTop;
  if (top < box.scrollTop) box.scrollTop = Math.max(0, top - 4);
  else if (top + cur.offsetHeight > box.scrollTop + box.clientHeight)
    box.scrollTop = top + cur.offsetHeight - box.clientHeight + 4;
}

// ---- thinking and analysis -----------------------------------------------------------------

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
    list.append(li);
  }
  views.forEach((v, i) => {
    const li = list.children[i] as HTMLElement;
    const cls = v.previewing ? 'line previewing' : 'line';
    if (li.className !== cls) li.className = cls;
    const [score, depth, pv] = Array.from(li.children);
    if (score.textContent !== v.score) score.textContent = v.score;
    if (depth.textContent !== v.depth) depth.textContent = v.depth;
    if (pv.textContent !== v.pv) pv.textContent = v.pv;
  });
}

export function renderAnalysis(dom: Dom, s: PageState, engine: EngineClient, running: boolean): void {
  dom.analysisCard.hidden = s.mode !== 'analysis';
  if (dom.analysisCard.hidden) return;
  const pos = viewPosition(s);
  const over = gameStatus(pos).result !== 'ongoing';
  dom.analyse.textContent = s.analysing ? 'Stop' : 'Analyse';
  // No Stop (or Analyse) for an engine this page does not hold (another tab, a closed server).
  dom.analyse.hidden = !engine.ready;
  dom.analyse.setAttribute('aria-pressed', String(s.analysing));
  dom.analyse.disabled = over;
  const lines = shownLines(s);
  dom.lines.dataset.state = running ? 'running' : 'stopped';
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
  renderLines(
    dom.lines,
    lines.map((l, i) => ({
      previewing: s.preview?.index === i,
      score: evalText({ kind: l.score.kind, value: pos.side === 0 ? l.score.value : -l.score.value }),
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
  if (label) label.textContent = e ? evalText(e) : '';
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

// ---- end of the game, offers, status, hint -------------------------------------------------

export function renderBanner(dom: Dom, s: PageState): void {
  const r = gameResult(s);
  const show = r !== null && atEnd(s) && !s.bannerClosed && !s.preview && s.mode !== 'analysis';
  dom.banner.hidden = !show;
  if (!show || !r) return;
  const names = colorNames(s);
  const winner: number = r.result === '1-0' ? 0 : r.result === '0-1' ? 1 : -1;
  let title = winner >= 0 ? `${names[winner]} wins` : 'Draw';
  let text = r.text;
  const last = nodeAt(s.tree, s.path)?.ply;
  if (!s.ending && winner >= 0 && last && last.killedSq >= 0 && kindOf(last.killedPiece) === PHARAOH) {
    const loser = winner ^ 1;
    text =
      last.side === loser
        ? `The ${names[loser]} Pharaoh was hit by its own laser (${last.text}).`
        : `${names[winner]}'s laser hit the ${names[loser]} Pharaoh on ${squareOf(last.killedSq)} (${last.text}).`;
  }
  if (s.mode === 'engine' && winner >= 0) title += winner === s.humanSide ? ' · you won!' : ' · Thoth won';
  dom.banner.dataset.result = r.result;
  dom.banner.dataset.winner = winner >= 0 ? names[winner] : 'draw';
  dom.bannerTitle.textContent = title;
  dom.bannerText.textContent = text;
}

function squareOf(sq: number): string {
  return String.fromCharCode(97 + (sq % 10)) + String(((sq / 10) | 0) + 1);
}

/** A draw offered between two players: the other one answers. */
export function renderOffer(dom: Dom, s: PageState): void {
  const show = s.mode === 'humans' && s.drawOffer !== null && !isOver(s);
  dom.offer.hidden = !show;
  if (show && s.drawOffer) {
    const names = colorNames(s);
    dom.offerText.textContent = `${names[s.drawOffer.by]} offers a draw. ${names[s.drawOffer.by ^ 1]}:`;
  }
}

export interface StatusView {
  state: string;
  text: string;
  action: { label: string; kind: 'reclaim' | 'restart' | 'reload' } | null;
}

/**
 * What the status pill says about the engine, and the one thing the person can do about it.
 * `detail` (the level and its threads) follows the state of a working engine.
 */
export function engineStatus(engine: EngineClient, detail = ''): StatusView {
  const name = engine.name || 'Engine';
  if (engine.connection === 'connecting')
    return {
      state: 'connecting',
      text: engine.link.where === 'page' ? 'Starting Thoth in this page…' : 'Connecting to the server…',
      action: null,
    };
  if (engine.connection === 'superseded')
    return {
      state: 'closed',
      text: 'Another tab is using the engine.',
      action: { label: 'Use it here', kind: 'reclaim' },
    };
  if (engine.connection === 'closed')
    return {
      state: 'closed',
      text: 'The server is gone: two players still work; reload when it is back.',
      action: { label: 'Reconnect', kind: 'reclaim' },
    };
  if (engine.unresponsive)
    return {
      state: 'failed',
      text: `${name} does not answer 'stop'.`,
      action: { label: 'Restart the engine', kind: 'restart' },
    };
  if (engine.state === 'starting') return { state: 'starting', text: 'Starting the engine…', action: null };
  if (engine.state === 'failed' || engine.state === 'exited')
    return {
      state: 'failed',
      text: `Engine unavailable: ${engine.message}`,
      action: { label: 'Restart the engine', kind: 'restart' },
    };
  const shown = engine.link.where === 'page' ? `${name} in this page` : name;
  const more = detail ? ` · ${detail}` : '';
  if (engine.busy) return { state: 'thinking', text: `${shown} · thinking${more}`, action: null };
  return { state: 'ready', text: `${shown} · ready${more}`, action: null };
}

export function renderStatus(dom: Dom, engine: EngineClient, detail = ''): void {
  const v = engineStatus(engine, detail);
  dom.status.dataset.state = v.state;
  dom.status.textContent = v.text;
  const hash = engine.strength?.hashMb ? ` (table ${engine.strength.hashMb} MB)` : '';
  dom.status.title = engine.command ? `Engine: ${engine.command}${hash}` : '';
  dom.statusAction.hidden = !v.action;
  if (v.action) {
    dom.statusAction.textContent = v.action.label;
    dom.statusAction.dataset.kind = v.action.kind;
  }
}

export function renderHint(dom: Dom, s: PageState, engineReady: boolean): void {
  const pos = viewPosition(s);
  const names = colorNames(s);
  let t = '';
  dom.hint.classList.toggle('error', s.message.startsWith('Cannot '));
  const advice = s.mode === 'analysis' && !s.preview ? reviewAdvice(s) : null;
  if (s.message) t = s.message;
  else if (advice) t = advice.text;
  else if (s.preview) t = 'Previewing an engine line: ‹ › step through it, Esc returns to the game.';
  else if (s.pendingReply) t = 'Your shot… (click or press a key to see Thoth’s reply)';
  else if (isOver(s) && atEnd(s)) t = gameResult(s)?.text ?? '';
  else if (!atEnd(s) && s.mode !== 'analysis') {
    const l = moveLabel(s.tree, s.path);
    const total = mainlineMoveCount(s.tree);
    t = l
      ? `You are looking at move ${l.number} (${names[l.side]}: ${l.text}) of ${total}: press End (or ») to return to the game.`
      : `You are looking at the start: press End (or ») to return to the game.`;
  } else if (s.premove && premovePosition(s))
    t = `Premove ${s.premove}: played as soon as Thoth has moved (Esc or a right-click cancels it).`;
  else if (s.mode === 'engine' && pos.side !== s.humanSide)
    t = engineReady ? 'Thoth is thinking…' : 'Thoth is not available here: the game waits for it.';
  else if (s.mode === 'engine' && !s.engineAvailable) t = 'Thoth is not available here: your moves wait until it is.';
  else if (s.selected >= 0 && (aimedOwnLoss(s) || (s.armed ?? null) !== null)) {
    const loss = aimedOwnLoss(s);
    const shot = aimedShot(s);
    const warn =
      loss === 'pharaoh'
        ? `This shot hits your own Pharaoh: you would lose. `
        : loss === 'piece' && shot
          ? `This shot removes your own piece on ${squareOf(shot.killedSq)}. `
          : '';
    t =
      `${warn}${(s.armed ?? null) !== null && shot ? `Tap again to play ${shot.text}, or pick another move.` : ''}`.trim();
  } else if (s.selected >= 0) {
    const k = kindOf(pos.board[s.selected]);
    const word =
      k === SPHINX
        ? 'turn the Sphinx'
        : k === PYRAMID || k === ANUBIS || k === SCARAB
          ? 'pick a square or rotate'
          : 'pick a square';
    t = `${squareOf(s.selected)} selected: ${word}.${k === STACK ? ' U switches between the whole stack and its top obelisk.' : ''}`;
  } else if (humanMayMove(s)) t = `${names[pos.side]} to move: pick a piece.`;
  else if (s.mode === 'analysis') t = 'The game is over in this position.';
  if (dom.hint.textContent !== t) dom.hint.textContent = t;
}

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

// ---- forms ---------------------------------------------------------------------------------

function options(sel: HTMLSelectElement, items: [string, string][], value: string): void {
  const key = items.map(([v, t]) => `${v}=${t}`).join('|');
  if (sel.dataset.items !== key) {
    sel.replaceChildren(
      ...items.map(([v, t]) => {
        const o = document.createElement('option');
        o.value = v;
        o.textContent = t;
        return o;
      }),
    );
    sel.dataset.items = key;
  }
  if (items.some(([v]) => v === value)) sel.value = value;
}

/** What the form says that the game on the board is not: it applies with New game, never before. */
function formPending(s: PageState): string[] {
  const st = s.settings;
  const out: string[] = [];
  if (st.edition !== s.tree.edition) out.push(`Edition ${EDITIONS[st.edition].name}`);
  else if (
    setupKfen(st.edition, st.setup) !== undefined &&
    setupKfen(st.edition, st.setup) !== s.tree.startKfen &&
    setupsOf(st.edition).some((x) => setupKfen(st.edition, x) === s.tree.startKfen)
  ) {
    out.push(`Setup ${st.setup[0].toUpperCase()}${st.setup.slice(1)}`);
  }
  if (s.mode === 'engine' && (st.side === '0' || st.side === '1') && Number(st.side) !== s.humanSide) {
    out.push(`You play ${EDITIONS[st.edition].colorNames[Number(st.side)]}`);
  }
  return out;
}

/** The form shows the settings (setups and colour names follow the edition). */
export function renderForm(dom: Dom, s: PageState, levels: Level[]): void {
  const st = s.settings;
  dom.edition.value = st.edition;
  options(
    dom.setup,
    setupsOf(st.edition).map((x) => [x, x[0].toUpperCase() + x.slice(1)]),
    st.setup,
  );
  const names = EDITIONS[st.edition].colorNames;
  options(
    dom.side,
    [
      ['0', `${names[0]} (first)`],
      ['1', names[1]],
      ['random', 'Random'],
    ],
    st.side,
  );
  options(
    dom.level,
    levels.map((l) => [String(l.n), l.label]),
    String(st.level),
  );
  dom.tc.value = st.tc;
  dom.multipv.value = String(st.multipv);
  dom.optThinking.checked = st.showThinking;
  dom.optLasers.checked = st.showLasers;
  dom.optAim.checked = st.shotPreview;
  for (const r of dom.modes) r.checked = r.value === s.mode;
  const note = dom.body.ownerDocument.getElementById('form-note');
  if (note) {
    const pending = formPending(s);
    note.hidden = pending.length === 0;
    note.textContent = pending.length
      ? `${pending.join(', ')}: with New game (the game on the board is not changed).`
      : '';
  }
  dom.body.dataset.mode = s.mode;
  dom.body.className = `ed-${s.tree.edition}`;
}

// ---- help ----------------------------------------------------------------------------------

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
