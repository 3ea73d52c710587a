/**
 * The players' bars above and below the board: who plays which colour, the pieces each has lost
 * (and the material lead), whose move it is, and the clocks.
 */
import { STACK, colorOf, kindOf } from '../../../core/index';
import { pieceSvg } from './board';
import { clockText, timeLeft } from '../state/clock';
import type { Dom, PlayerBar } from './dom';
import { atEnd, colorNames, isOver, viewPosition } from '../state/state-queries';
import { materialLeadHtml } from './material';
import { escapeHtml, setHtml } from './panel-html';
import type { PageState } from '../state/state-types';

/**
 * A player's name outside a game against Thoth: the players of a game played on this page (its
 * Human reads You), else its record's White/Black tag as written (a record someone else played,
 * imported or opened from a link, names its Human, not the person who opens it).
 */
function recordName(s: PageState, c: number): string {
  if (s.players) return s.players[c] === 'Human' ? 'You' : s.players[c];
  const name = s.tags.find(([k]) => k === (c === 0 ? 'White' : 'Black'))?.[1] ?? '';
  return name === '?' ? '' : name;
}

/** The bar's name: the player and the colour, the colour apart so that a long name never cuts it off. */
function nameHtml(who: string, colour: string): string {
  const c = `<span class="colour">${escapeHtml(colour)}</span>`;
  return who ? `<span class="who">${escapeHtml(who)}</span><span class="sep"> · </span>${c}` : c;
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
    setHtml(bar.name, nameHtml(who, names[c]));
    bar.name.title = who ? `${who} · ${names[c]}` : names[c];
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
