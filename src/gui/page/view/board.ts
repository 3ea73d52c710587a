/**
 * The board in SVG: squares (reserved ones marked), pieces drawn so their orientation shows,
 * move targets, the laser beam, the piece it removes leaving, arrows for the engine's moves and
 * for a premoved rotation. It draws what it is given; the rules live in the core. The pieces'
 * markup is board-svg.ts's, the pointer handling (click, drag, aim) board-pointer.ts's, as
 * chessground splits its render, drag and events.
 */
import {
  BLOCK,
  KILL,
  OBELISK,
  PHARAOH,
  STACK,
  colorOf,
  kindOf,
  oriOf,
  squareName,
  type BeamPath,
  type Edition,
} from '../../../core/index';
import { drawDanger } from './board-danger';
import { BoardPointer } from './board-pointer';
import { SQ, el, pieceLabel, pieceShape, pieceTitle } from './board-svg';
import type { BoardEvents, BoardModel } from './board-model';
import type { LaserSource } from '../state/move-effect';

export { pieceSvg } from './board-svg';

export type { Arrow, BoardEvents, BoardModel, TargetKind } from './board-model';

export class BoardView {
  readonly svg: SVGSVGElement;
  private readonly layers: Record<
    'squares' | 'marks' | 'pieces' | 'danger' | 'fx' | 'lasers' | 'beam' | 'aim' | 'arrows' | 'hit' | 'controls',
    SVGGElement
  >;
  /** The tooltip of each square (on the top layer, where the pointer is). */
  private readonly hitTitles: SVGTitleElement[] = [];
  private model: BoardModel | null = null;
  private beamId = '';
  private motionId = '';
  private squaresKey = '';
  private readonly pointer: BoardPointer;

  constructor(container: HTMLElement, events: BoardEvents) {
    // Room for the frame's stroke on every side (also the wider one of a preview) and the coordinates.
    this.svg = el('svg', { viewBox: '-34 -16 1054 856', role: 'img' }, 'board');
    this.svg.setAttribute('aria-label', 'Khet board');
    this.svg.innerHTML =
      '<defs>' +
      '<linearGradient id="g-silver" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset=".55" stop-color="#c9d0d9"/><stop offset="1" stop-color="#8d97a5"/></linearGradient>' +
      '<linearGradient id="g-red" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff7a66"/><stop offset=".55" stop-color="#d3362a"/><stop offset="1" stop-color="#8b1710"/></linearGradient>' +
      '<linearGradient id="g-gold" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff0b3"/><stop offset=".55" stop-color="#e8b83a"/><stop offset="1" stop-color="#a8780e"/></linearGradient>' +
      '<linearGradient id="g-mirror" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset=".5" stop-color="#8fe3ff"/><stop offset="1" stop-color="#e9fbff"/></linearGradient>' +
      '<filter id="f-glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="6"/></filter>' +
      '<filter id="f-shadow" x="-30%" y="-30%" width="160%" height="160%"><feDropShadow dx="2" dy="4" stdDeviation="3" flood-color="#000" flood-opacity=".45"/></filter>' +
      '<marker id="m-best" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead best"/></marker>' +
      '<marker id="m-alt" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead alt"/></marker>' +
      '<marker id="m-pv" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead pv"/></marker>' +
      '<marker id="m-threat" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead threat"/></marker>' +
      ['G', 'R', 'Y', 'B']
        .map(
          (c) =>
            `<marker id="m-note-${c}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead note-${c}"/></marker>`,
        )
        .join('') +
      '<marker id="m-premove" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead premove"/></marker>' +
      '</defs>';
    const mk = (id: string): SVGGElement => {
      const g = el('g', { id: `layer-${id}` });
      this.svg.appendChild(g);
      return g;
    };
    this.layers = {
      squares: mk('squares'),
      marks: mk('marks'),
      pieces: mk('pieces'),
      danger: mk('danger'),
      fx: mk('fx'),
      lasers: mk('lasers'),
      beam: mk('beam'),
      aim: mk('aim'),
      arrows: mk('arrows'),
      hit: mk('hit'),
      controls: mk('controls'),
    };
    container.appendChild(this.svg);
    this.pointer = new BoardPointer(
      {
        svg: this.svg,
        model: () => this.model,
        pieceNode: (p, sq, ed) => this.pieceNode(p, sq, ed),
        layer: (name) => this.layers[name],
        redraw: () => {
          if (this.model) this.render(this.model);
        },
      },
      events,
    );
  }

  /** Top-left corner of a square on screen. */
  xy(sq: number, flipped = this.model?.flipped ?? false): [number, number] {
    const f = sq % 10;
    const r = (sq / 10) | 0;
    return flipped ? [(9 - f) * SQ, r * SQ] : [f * SQ, (7 - r) * SQ];
  }

  centre(sq: number): [number, number] {
    const [x, y] = this.xy(sq);
    return [x + SQ / 2, y + SQ / 2];
  }

  render(m: BoardModel): void {
    this.model = m;
    const ed = m.pos.edition;
    const key = `${ed.id}/${m.flipped}`;
    if (key !== this.squaresKey) {
      this.squaresKey = key;
      this.drawSquares(ed, m.flipped);
      this.layers.fx.replaceChildren();
      // A new board (edition, side): the old beam goes, whatever comes next.
      this.layers.beam.replaceChildren();
      this.layers.beam.removeAttribute('data-path');
      this.beamId = '';
    }
    this.drawMarks(m);
    this.drawPieces(m);
    if (m.danger) drawDanger(this.layers.danger, m.pos, m.danger, (sq) => this.xy(sq));
    else this.layers.danger.replaceChildren();
    this.drawBeam(m);
    this.drawLasers(m);
    this.drawAim(m);
    this.drawArrows(m);
    this.drawControls(m);
    this.svg.classList.toggle('interactive', m.interactive);
  }

  private drawSquares(ed: Edition, flipped: boolean): void {
    const g = this.layers.squares;
    const hit = this.layers.hit;
    g.replaceChildren();
    hit.replaceChildren();
    this.hitTitles.length = 0;
    g.appendChild(el('rect', { x: -10, y: -10, width: 1020, height: 820, rx: 14 }, 'frame'));
    for (let sq = 0; sq < 80; sq++) {
      const [x, y] = this.xy(sq, flipped);
      const r0 = (ed.reserved[0 + (sq >> 5)] & (1 << (sq & 31))) !== 0; // first player may not stand: second's
      const r1 = (ed.reserved[3 + (sq >> 5)] & (1 << (sq & 31))) !== 0; // first player's
      const cls = 'sq' + (((sq % 10) + ((sq / 10) | 0)) % 2 ? ' alt' : '') + (r0 ? ' res1' : r1 ? ' res0' : '');
      g.appendChild(el('rect', { x, y, width: SQ, height: SQ }, cls));
      if (r0 || r1) g.appendChild(this.reservedMark(r1 ? 0 : 1, x, y));
      const h = el('rect', { x, y, width: SQ, height: SQ, 'data-square': squareName(sq) }, 'hit');
      const title = el('title');
      h.appendChild(title);
      this.hitTitles[sq] = title;
      hit.appendChild(h);
    }
    if (!ed.sphinx) {
      // Lasers fixed in the board's edge: an emitter where each beam enters.
      for (const c of [0, 1]) {
        const sq = ed.laserSquare[c];
        const dir = ed.laserDir[c];
        const [x, y] = this.xy(sq, flipped);
        const screenDir = (dir + (flipped ? 2 : 0)) % 4;
        const ex = x + SQ / 2 - [0, 1, 0, -1][screenDir] * (SQ / 2 - 3);
        const ey = y + SQ / 2 + [1, 0, -1, 0][screenDir] * (SQ / 2 - 3);
        const e = el('g', { transform: `translate(${ex},${ey}) rotate(${screenDir * 90})` }, `emitter p${c}`);
        e.innerHTML = '<rect x="-16" y="-5" width="32" height="8" rx="3"/><polygon points="-9,-4 9,-4 0,-15"/>';
        g.appendChild(e);
      }
    }
    for (let f = 0; f < 10; f++) {
      const [x] = this.xy(f, flipped);
      const t = el('text', { x: x + SQ / 2, y: 832 }, 'coord');
      t.textContent = String.fromCharCode(97 + f);
      g.appendChild(t);
    }
    for (let r = 0; r < 8; r++) {
      const [, y] = this.xy(r * 10, flipped);
      const t = el('text', { x: -21, y: y + SQ / 2 + 8 }, 'coord');
      t.textContent = String(r + 1);
      g.appendChild(t);
    }
  }

  /** The owner's emblem in a reserved square: an ankh for the first player, an eye for the second. */
  private reservedMark(owner: number, x: number, y: number): SVGGElement {
    const g = el('g', { transform: `translate(${x + 82},${y + 20}) scale(0.8)` }, `res-mark res-mark${owner}`);
    g.innerHTML =
      owner === 0
        ? '<ellipse cx="0" cy="-7" rx="5" ry="7"/><path d="M 0 0 V 14 M -8 1 H 8"/>'
        : '<path d="M -11 0 Q 0 -10 11 0 Q 0 10 -11 0 Z"/><circle cx="0" cy="0" r="3.2"/>';
    return g;
  }

  private drawMarks(m: BoardModel): void {
    const g = this.layers.marks;
    g.replaceChildren();
    const square = (sq: number, cls: string): void => {
      const [x, y] = this.xy(sq);
      g.appendChild(el('rect', { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, rx: 6 }, cls));
    };
    if (m.lastMove) {
      square(m.lastMove.from, 'last');
      if (m.lastMove.to !== m.lastMove.from) square(m.lastMove.to, 'last');
    }
    if (m.premove) {
      square(m.premove.from, 'premove');
      if (m.premove.to !== m.premove.from) square(m.premove.to, 'premove');
    }
    for (const sq of m.faults ?? []) square(sq, 'fault');
    if (m.selected >= 0) square(m.selected, 'selected');
    if (m.cursor >= 0) {
      square(m.cursor, 'cursor');
      g.lastElementChild?.setAttribute('data-sq', squareName(m.cursor));
    }
    if (m.drawFrom !== undefined && m.drawFrom >= 0) {
      square(m.drawFrom, 'draw-from');
      g.lastElementChild?.setAttribute('data-sq', squareName(m.drawFrom));
    }
    for (const [sq, kind] of m.targets) {
      const [cx, cy] = this.centre(sq);
      const t =
        kind === 'step'
          ? el('circle', { cx, cy, r: 13 }, 'target step')
          : el('rect', { x: cx - 46, y: cy - 46, width: 92, height: 92, rx: 12 }, `target ${kind}`);
      t.setAttribute('data-target', squareName(sq));
      g.appendChild(t);
    }
  }

  private pieceNode(p: number, sq: number, ed: Edition): SVGGElement {
    const [cx, cy] = this.centre(sq);
    const kind = kindOf(p);
    const flip = this.model?.flipped ? 180 : 0;
    const rot = kind === PHARAOH || kind === OBELISK || kind === STACK ? 0 : oriOf(p) * 90 + flip;
    const g = el('g', { transform: `translate(${cx},${cy})` }, `piece p${colorOf(p)} k${kind}`);
    g.setAttribute('data-sq', squareName(sq));
    g.setAttribute('data-piece', pieceLabel(p));
    const inner = el('g', { transform: `rotate(${rot})` });
    inner.innerHTML = pieceShape(kind);
    const title = el('title');
    title.textContent = `${pieceTitle(p, ed)} on ${squareName(sq)}`;
    // Animations set the CSS `transform` of this wrapper, which leaves the attributes alone.
    const anim = el('g', {}, 'anim');
    anim.appendChild(inner);
    g.append(title, anim);
    return g;
  }

  /** A square's tooltip: the piece on it, or whose reserved square it is. */
  private squareTitle(m: BoardModel, sq: number): string {
    const ed = m.pos.edition;
    const p = m.pos.board[sq];
    if (p !== 0) return `${pieceTitle(p, ed)} on ${squareName(sq)}`;
    const r0 = (ed.reserved[0 + (sq >> 5)] & (1 << (sq & 31))) !== 0;
    const r1 = (ed.reserved[3 + (sq >> 5)] & (1 << (sq & 31))) !== 0;
    return r0 || r1 ? `${squareName(sq)}: only ${ed.colorNames[r1 ? 0 : 1]} pieces may stand here` : squareName(sq);
  }

  private drawPieces(m: BoardModel): void {
    const g = this.layers.pieces;
    g.replaceChildren();
    for (let sq = 0; sq < 80; sq++) {
      const t = this.hitTitles[sq];
      if (t) t.textContent = this.squareTitle(m, sq);
      const p = m.pos.board[sq];
      if (p === 0) continue;
      const n = this.pieceNode(p, sq, m.pos.edition);
      if (this.pointer.draggedFrom() === sq) n.classList.add('dragging-source');
      if (sq === m.selected) {
        n.classList.add('is-selected');
        // A selected stack shows what is about to move: both obelisks, or the top one alone.
        if (kindOf(p) === STACK) {
          const top = m.stackTop === true;
          n.setAttribute('data-moving', top ? 'top' : 'stack');
          const badge = n.querySelector('.badge-text');
          if (badge) badge.textContent = top ? '1' : '2';
          const title = n.querySelector('title');
          if (title)
            title.textContent += top
              ? ': its top obelisk moves (U: the whole stack)'
              : ': the whole stack moves (U: its top obelisk only)';
        }
      }
      g.appendChild(n);
    }
    const mo = m.motion;
    if (mo && mo.id !== this.motionId) {
      this.motionId = mo.id;
      const wrap = (sq: number): SVGGElement | null => g.querySelector(`[data-sq="${squareName(sq)}"] .anim`);
      const opts: KeyframeAnimationOptions = { duration: 220, easing: 'cubic-bezier(.2,.7,.3,1)' };
      if (mo.rot) {
        const turn = mo.rot === '+' ? -90 : 90;
        wrap(mo.from)?.animate([{ transform: `rotate(${turn}deg)` }, { transform: 'rotate(0deg)' }], opts);
      } else if (mo.to !== mo.from) {
        const [fx, fy] = this.centre(mo.from);
        const [tx, ty] = this.centre(mo.to);
        wrap(mo.to)?.animate(
          [{ transform: `translate(${fx - tx}px,${fy - ty}px)` }, { transform: 'translate(0px,0px)' }],
          opts,
        );
        if (mo.swap)
          wrap(mo.from)?.animate(
            [{ transform: `translate(${tx - fx}px,${ty - fy}px)` }, { transform: 'translate(0px,0px)' }],
            opts,
          );
      }
    } else if (!mo) this.motionId = '';
  }

  /** The polyline of a beam: its points and how it ends. */
  private beamShape(
    path: BeamPath,
    laser: LaserSource,
  ): { points: string; end: 'kill' | 'block' | 'off'; at: [number, number] } {
    const pts: [number, number][] = [];
    const half = SQ / 2;
    const flip = this.model?.flipped ? -1 : 1;
    const dxy = (dir: number): [number, number] => [[0, 1, 0, -1][dir] * flip, [-1, 0, 1, 0][dir] * flip];
    if (laser.strikeFirst) {
      // A laser fixed in the board's edge: the beam enters from outside.
      const [cx, cy] = this.centre(laser.square);
      const [dx, dy] = dxy(laser.dir);
      pts.push([cx - dx * half, cy - dy * half]);
    }
    for (const s of path.steps) pts.push(this.centre(s.square));
    const last = path.steps[path.steps.length - 1];
    let end: 'kill' | 'block' | 'off' = 'off';
    if (last) {
      if (last.out === KILL) end = 'kill';
      else if (last.out === BLOCK) end = 'block';
      else {
        const [cx, cy] = this.centre(last.square);
        const [dx, dy] = dxy(last.out);
        pts.push([cx + dx * half, cy + dy * half]);
      }
    }
    return { points: pts.map(([x, y]) => `${x},${y}`).join(' '), end, at: pts[pts.length - 1] ?? [0, 0] };
  }

  private drawBeam(m: BoardModel): void {
    const id = m.beam ? `${m.beam.id}/${m.flipped}` : '';
    if (id === this.beamId) return;
    const fresh = m.beam !== null && this.beamId.split('/')[0] !== m.beam.id;
    this.beamId = id;
    const g = this.layers.beam;
    g.replaceChildren();
    if (!m.beam) {
      g.removeAttribute('data-path');
      g.removeAttribute('data-end');
      g.removeAttribute('data-side');
      return;
    }
    const { ply } = m.beam;
    const shape = this.beamShape(ply.beam, ply.laser);
    g.setAttribute('data-path', ply.beam.steps.map((s) => squareName(s.square)).join(' '));
    g.setAttribute('data-end', shape.end === 'kill' ? `kill ${squareName(ply.beam.killed)}` : shape.end);
    g.setAttribute('data-side', String(ply.side));
    g.setAttribute('class', `beam side${ply.side}${fresh ? ' fresh' : ''}`);
    if (shape.end === 'kill' && ply.killedSq >= 0)
      g.appendChild(this.killMark(ply.killedSq, ply.killedPiece, m.pos.edition));
    g.appendChild(el('polyline', { points: shape.points, pathLength: 1 }, 'beam-glow'));
    g.appendChild(el('polyline', { points: shape.points, pathLength: 1 }, 'beam-core'));
    const [ex, ey] = shape.at;
    if (shape.end === 'kill') {
      // The CSS animation sets `transform`, so the position goes on a wrapper.
      const at = el('g', { transform: `translate(${ex},${ey})` });
      const burst = el('g', {}, 'burst');
      burst.innerHTML =
        '<polygon points="0,-40 9,-12 38,-14 14,4 26,32 0,16 -26,32 -14,4 -38,-14 -9,-12"/><circle r="10"/>';
      at.appendChild(burst);
      g.appendChild(at);
      if (fresh && ply.killedSq >= 0) this.showLeaving(ply.killedSq, ply.killedPiece, m.pos.edition);
    } else if (shape.end === 'block') {
      g.appendChild(el('circle', { cx: ex, cy: ey, r: 12 }, 'spark'));
    }
  }

  /** Where a removed piece stood while its shot is on show: its ghost, crossed out. */
  private killMark(sq: number, piece: number, ed: Edition): SVGGElement {
    const shown = kindOf(piece) === STACK ? piece - 4 : piece;
    const n = this.pieceNode(shown, sq, ed);
    n.setAttribute('class', `kill-mark p${colorOf(shown)}`);
    n.setAttribute('data-killed', squareName(sq));
    n.querySelector('title')!.textContent = `${pieceTitle(shown, ed)} on ${squareName(sq)}: removed by the laser`;
    const cross = el('path', { d: 'M -30 -30 L 30 30 M 30 -30 L -30 30' }, 'kill-cross');
    n.appendChild(cross);
    return n;
  }

  /** Both lasers' paths in the shown position, thin and dashed. */
  private drawLasers(m: BoardModel): void {
    const g = this.layers.lasers;
    g.replaceChildren();
    for (const l of m.lasers) {
      const shape = this.beamShape(l.beam, l.laser);
      const line = el('polyline', { points: shape.points }, `laser-path side${l.side}`);
      line.setAttribute('data-side', String(l.side));
      line.setAttribute('data-path', l.beam.steps.map((s) => squareName(s.square)).join(' '));
      g.appendChild(line);
      if (shape.end === 'kill')
        g.appendChild(el('circle', { cx: shape.at[0], cy: shape.at[1], r: 30 }, `laser-target side${l.side}`));
    }
  }

  /** The shot of the move under the pointer: dashed, with the piece it would remove ringed. */
  private drawAim(m: BoardModel): void {
    const g = this.layers.aim;
    g.replaceChildren();
    g.removeAttribute('data-path');
    g.removeAttribute('data-own');
    if (!m.aim) return;
    const shape = this.beamShape(m.aim.beam, m.aim.laser);
    g.setAttribute('data-path', m.aim.beam.steps.map((s) => squareName(s.square)).join(' '));
    g.setAttribute('data-end', shape.end === 'kill' ? `kill ${squareName(m.aim.beam.killed)}` : shape.end);
    g.appendChild(el('polyline', { points: shape.points }, 'aim-path'));
    if (shape.end === 'kill') {
      // A shot at one's own piece is marked; at one's own Pharaoh (a loss) more so.
      const own = colorOf(m.aim.killedPiece) === m.aim.side;
      const pharaoh = own && kindOf(m.aim.killedPiece) === PHARAOH;
      g.appendChild(
        el(
          'circle',
          { cx: shape.at[0], cy: shape.at[1], r: 40 },
          `aim-target${own ? ' own' : ''}${pharaoh ? ' own-pharaoh' : ''}`,
        ),
      );
      g.setAttribute('data-own', pharaoh ? 'pharaoh' : own ? 'piece' : '');
    }
  }

  /** The removed piece, drawn where it stood, fading and rising away. */
  private showLeaving(sq: number, piece: number, ed: Edition): void {
    // A hit on a stack removes only its top obelisk.
    const shown = kindOf(piece) === STACK ? piece - 4 : piece;
    const n = this.pieceNode(shown, sq, ed);
    n.classList.add('leaving');
    n.querySelector('.anim')?.classList.add('leaving-anim');
    this.layers.fx.appendChild(n);
    setTimeout(() => n.remove(), 2300);
  }

  private drawArrows(m: BoardModel): void {
    const g = this.layers.arrows;
    g.replaceChildren();
    this.drawNotes(g, m);
    for (const a of m.arrows) {
      const [x1, y1] = this.centre(a.from);
      if (a.rot) {
        g.appendChild(this.turnArc(a.from, a.rot, a.style));
      } else {
        const [x2, y2] = this.centre(a.to);
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const shorten = 22;
        const ex = x2 - ((x2 - x1) / len) * shorten;
        const ey = y2 - ((y2 - y1) / len) * shorten;
        g.appendChild(el('line', { x1, y1, x2: ex, y2: ey, 'marker-end': `url(#m-${a.style})` }, `arrow ${a.style}`));
      }
      if (a.label) {
        // Along the arrow (arrows from one square part there), or beside a rotation's arc.
        const [x2, y2] = a.rot ? [x1 + (a.rot === '+' ? -70 : 70), y1 - 20] : this.centre(a.to);
        const t = el(
          'text',
          { x: x1 + (x2 - x1) * 0.62, y: y1 + (y2 - y1) * 0.62 + 7, 'text-anchor': 'middle' },
          `arrow-label ${a.style}`,
        );
        t.textContent = a.label;
        g.appendChild(t);
      }
    }
    // a premoved rotation: which way it turns, not only its square
    if (m.premove?.rot) g.appendChild(this.turnArc(m.premove.from, m.premove.rot, 'premove'));
  }

  /** A rotation's arrow: an arc over the square that turns the way the piece turns. */
  private turnArc(sq: number, rot: '+' | '-', style: string): SVGPathElement {
    const [x1, y1] = this.centre(sq);
    const r = 34;
    const sweep = rot === '+' ? 1 : 0;
    const sx = x1 + (rot === '+' ? -r : r) * 0.5;
    const path = `M ${sx} ${y1 - r * 0.87} A ${r} ${r} 0 1 ${sweep} ${x1 + (rot === '+' ? -r : r)} ${y1}`;
    const arc = el('path', { d: path, 'marker-end': `url(#m-${style})` }, `arrow ${style}`);
    arc.setAttribute('data-turn', rot);
    return arc;
  }

  /** The shown move's drawings from its comment: lichess's arrows and circled squares, in their colours. */
  private drawNotes(g: SVGGElement, m: BoardModel): void {
    for (const mark of m.notes?.marks ?? []) {
      const [cx, cy] = this.centre(mark.sq);
      const c = el('circle', { cx, cy, r: 44 }, `note-mark note-${mark.color}`);
      c.setAttribute('data-note', `${mark.color}${squareName(mark.sq)}`);
      g.appendChild(c);
    }
    for (const a of m.notes?.arrows ?? []) {
      const [x1, y1] = this.centre(a.from);
      const [x2, y2] = this.centre(a.to);
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      const line = el(
        'line',
        {
          x1,
          y1,
          x2: x2 - ((x2 - x1) / len) * 24,
          y2: y2 - ((y2 - y1) / len) * 24,
          'marker-end': `url(#m-note-${a.color})`,
        },
        `note-arrow note-${a.color}`,
      );
      line.setAttribute('data-note', `${a.color}${squareName(a.from)}${squareName(a.to)}`);
      g.appendChild(line);
    }
  }

  private drawControls(m: BoardModel): void {
    const g = this.layers.controls;
    g.replaceChildren();
    if (m.selected < 0 || !m.interactive) return;
    const [x, y] = this.xy(m.selected);
    const button = (dir: '+' | '-', bx: number): void => {
      const b = el(
        'g',
        { transform: `translate(${bx},${y + 20})`, 'data-rot': dir, role: 'button', tabindex: -1 },
        'rot-btn',
      );
      const title = el('title');
      title.textContent = dir === '+' ? 'Rotate clockwise (+ or ])' : 'Rotate counter-clockwise (- or [)';
      // The icon is drawn for clockwise; mirrored it turns the other way.
      const icon = el('g', { transform: dir === '+' ? 'scale(1.2)' : 'scale(-1.2,1.2)' });
      icon.innerHTML =
        '<circle class="pad" r="28"/><circle r="17"/><path d="M 0 -9 A 9 9 0 1 1 -9 0"/><polygon points="-9,-6 -14.5,2.5 -3.5,2.5"/>';
      b.append(title, icon);
      b.addEventListener('pointerenter', () => this.pointer.setAim(dir));
      g.appendChild(b);
    };
    if (m.rotations.ccw) button('-', x + 20);
    if (m.rotations.cw) button('+', x + SQ - 20);
  }
}
