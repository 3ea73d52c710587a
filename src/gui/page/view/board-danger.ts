/**
 * The danger map on the board (src/core/threats.ts through src/analysis/threat-words.ts): a dot on
 * each empty square the beam can reach after one move of its side, a ring round each piece it can
 * remove (its tooltip says by which moves), a red halo round a Pharaoh it can hit, and the
 * Pharaoh-hitting beams dashed; and the same in words under the board.
 */
import { PHARAOH, kindOf, squareName, type Position } from '../../../core/index';
import { listWords } from '../../../analysis/beam-words';
import { targetWords, type ShotWords, type ThreatWords } from '../../../analysis/threat-words';
import { SQ, el } from './board-svg';

/** How a shot is fired, in words: its moves, or "any of N moves" for the beam as it runs now. */
function howWords(s: ShotWords): string {
  return s.standing ? `any of ${s.count} moves that leave the beam as it is` : listWords(s.moves.map((m) => m.text));
}

/** Draws the map into layer `g`; `xy` places a square's top-left corner. */
export function drawDanger(g: SVGGElement, pos: Position, t: ThreatWords, xy: (sq: number) => [number, number]): void {
  g.replaceChildren();
  g.setAttribute('data-attacker', String(t.attacker));
  const centre = (sq: number): [number, number] => {
    const [x, y] = xy(sq);
    return [x + SQ / 2, y + SQ / 2];
  };
  for (const sq of t.reach) {
    if (pos.board[sq] !== 0) continue;
    const [cx, cy] = centre(sq);
    const dot = el('circle', { cx, cy, r: 9 }, 'danger-dot');
    dot.setAttribute('data-sq', squareName(sq));
    g.appendChild(dot);
  }
  for (const s of t.shots.filter((x) => x.winning)) {
    const pts = s.path.map((sq) => centre(sq).join(',')).join(' ');
    g.appendChild(el('polyline', { points: pts }, 'danger-beam'));
  }
  const byTarget = new Map<number, ShotWords[]>();
  for (const s of t.shots) if (s.hit >= 0) byTarget.set(s.hit, [...(byTarget.get(s.hit) ?? []), s]);
  for (const [sq, shots] of byTarget) {
    const [cx, cy] = centre(sq);
    const pharaoh = kindOf(pos.board[sq]) === PHARAOH && pos.board[sq] >> 5 !== t.attacker;
    const ring = el('circle', { cx, cy, r: pharaoh ? 50 : 46 }, pharaoh ? 'danger-halo' : 'danger-ring');
    ring.setAttribute('data-sq', squareName(sq));
    const title = el('title');
    title.textContent = `${targetWords(pos, t.attacker, sq, pos.board[sq])}: ${shots.map(howWords).join('; ')}`;
    ring.appendChild(title);
    g.appendChild(ring);
  }
}

/** The map in a sentence or two, for under the board. */
function dangerText(pos: Position, t: ThreatWords): string {
  const ed = pos.edition;
  const a = ed.colorNames[t.attacker];
  const hits = t.shots.filter((s) => s.hit >= 0 && s.hitPiece >> 5 !== t.attacker);
  const head = t.attacker === pos.side ? `What ${a} can hit now` : `Danger: what ${a} could hit with one move`;
  if (hits.length === 0) return `${head}: nothing of ${ed.colorNames[t.attacker ^ 1]}'s.`;
  const parts = hits.map((s) => {
    const how = s.standing ? `any of ${s.count} moves` : listWords(s.moves.map((m) => m.text));
    return `${s.winning ? '⚠ ' : ''}${targetWords(pos, t.attacker, s.hit, s.hitPiece)} (${how})`;
  });
  const win = hits.find((s) => s.winning);
  const why = win ? ` ${win.standing ? 'The beam' : `After ${win.moves[0].text} the beam`} ${win.sentence}.` : '';
  return `${head}: ${parts.join('; ')}.${why}`;
}

/** The toolbar's Danger button and the words under the board, for the board's model. */
export function renderDanger(
  dom: { danger: HTMLButtonElement; dangerWords: HTMLElement },
  m: { pos: Position; danger?: ThreatWords | null },
): void {
  const t = m.danger ?? null;
  dom.danger.setAttribute('aria-pressed', String(t !== null));
  dom.danger.dataset.view = t === null ? 'off' : t.attacker === m.pos.side ? 'for' : 'against';
  dom.dangerWords.hidden = t === null;
  const text = t === null ? '' : dangerText(m.pos, t);
  if (dom.dangerWords.textContent !== text) dom.dangerWords.textContent = text;
  dom.dangerWords.classList.toggle('alarm', t !== null && t.shots.some((s) => s.winning));
}
