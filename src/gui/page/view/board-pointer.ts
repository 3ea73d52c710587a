/**
 * The board's pointer handling, as chessground keeps drag and events apart from rendering: a press
 * on a square or a rotate button, a click, a drag with its ghost piece, and the square or button
 * under the pointer (the aim). It reads the board's model and tells the board's events; the
 * drawing is board.ts's.
 */
import { squareName, type Edition } from '../../../core/index';
import type { BoardEvents, BoardModel } from './board-model';
import { SQ } from './board-svg';

/** What the pointer needs of the board it serves. */
export interface PointerHost {
  readonly svg: SVGSVGElement;
  /** The model last drawn (null before the first). */
  model(): BoardModel | null;
  /** A piece drawn as it stands on `sq` (the ghost under the pointer starts as one). */
  pieceNode(p: number, sq: number, ed: Edition): SVGGElement;
  /** The layer the ghost is drawn on, and the pieces' layer. */
  layer(name: 'controls' | 'pieces'): SVGGElement;
  /** Draws the model again (a drag let go where it cannot drop). */
  redraw(): void;
}

export class BoardPointer {
  private aimed: number | '+' | '-' | null = null;
  /** Where a right-button drawing started, or -1. */
  private drawFrom = -1;
  private drag: {
    from: number;
    x: number;
    y: number;
    pointer: number;
    ghost: SVGGElement | null;
    moved: boolean;
  } | null = null;

  constructor(
    private readonly host: PointerHost,
    private readonly events: BoardEvents,
  ) {
    const svg = host.svg;
    svg.addEventListener('pointerdown', (e) => this.onDown(e));
    svg.addEventListener('pointermove', (e) => this.onMove(e));
    svg.addEventListener('pointerup', (e) => this.onUp(e));
    svg.addEventListener('pointercancel', () => this.endDrag());
    svg.addEventListener('pointerleave', () => this.setAim(null));
    svg.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** The square whose piece is being dragged (past the threshold), or -1. */
  draggedFrom(): number {
    return this.drag?.moved ? this.drag.from : -1;
  }

  /** The pointer came over a target square, a rotate button, or left them (null). */
  setAim(t: number | '+' | '-' | null): void {
    if (t === this.aimed) return;
    this.aimed = t;
    this.events.aim(t);
  }

  private svgPoint(e: PointerEvent): [number, number] {
    const ctm = this.host.svg.getScreenCTM();
    if (!ctm) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return [p.x, p.y];
  }

  /** The square at a point of the board's SVG (the board's turn counted), or -1 off the board. */
  squareAt(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= 10 * SQ || y >= 8 * SQ) return -1;
    let f = Math.floor(x / SQ);
    let r = 7 - Math.floor(y / SQ);
    if (this.host.model()?.flipped) {
      f = 9 - f;
      r = 7 - r;
    }
    return r * 10 + f;
  }

  private onDown(e: PointerEvent): void {
    if (e.button === 2 && this.host.model()) {
      // a drawing starts: an arrow to the square the button is let go on, or a circle on this one
      const [x, y] = this.svgPoint(e);
      this.drawFrom = this.squareAt(x, y);
      return;
    }
    if (e.button !== 0 || !this.host.model()) return;
    const rot = (e.target as Element).closest?.('[data-rot]');
    if (rot) {
      e.preventDefault();
      this.events.rotate(rot.getAttribute('data-rot') === '+' ? '+' : '-');
      return;
    }
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (sq < 0) return;
    e.preventDefault();
    const draggable = this.events.press(sq);
    this.drag = { from: sq, x: e.clientX, y: e.clientY, pointer: e.pointerId, ghost: null, moved: false };
    if (!draggable) this.drag = { ...this.drag, pointer: -1 };
    this.host.svg.setPointerCapture?.(e.pointerId);
  }

  private onMove(e: PointerEvent): void {
    const d = this.drag;
    const model = this.host.model();
    if (model && (!d || d.moved) && !(e.target as Element).closest?.('[data-rot]')) {
      const [px, py] = this.svgPoint(e);
      const sq = this.squareAt(px, py);
      this.setAim(sq >= 0 && model.targets.has(sq) ? sq : null);
    }
    if (!d || d.pointer !== e.pointerId || !model) return;
    if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
    if (!d.moved) {
      d.moved = true;
      const p = model.pos.board[d.from];
      if (p === 0) return;
      d.ghost = this.host.pieceNode(p, d.from, model.pos.edition);
      d.ghost.classList.add('ghost');
      this.host.layer('controls').replaceChildren(d.ghost);
      this.host
        .layer('pieces')
        .querySelector(`[data-sq="${squareName(d.from)}"]`)
        ?.classList.add('dragging-source');
    }
    const [x, y] = this.svgPoint(e);
    d.ghost?.setAttribute('transform', `translate(${x},${y}) scale(1.08)`);
  }

  private onUp(e: PointerEvent): void {
    if (e.button === 2) {
      const [x, y] = this.svgPoint(e);
      const to = this.squareAt(x, y);
      const from = this.drawFrom;
      this.drawFrom = -1;
      if (from >= 0 && to >= 0) this.events.draw?.(from, to, e.shiftKey, e.altKey);
      return;
    }
    const d = this.drag;
    if (!d) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    const moved = d.moved && d.pointer === e.pointerId;
    this.endDrag();
    if (moved) {
      if (sq >= 0 && sq !== d.from) this.events.drop(d.from, sq);
      // the board editor: a piece dragged off the board is taken off it
      else if (sq < 0 && this.host.model()?.editing) this.events.drop(d.from, -1);
      else this.host.redraw();
    } else if (sq >= 0) {
      // a press and a release (on the same square or, without a drag, on another): a click
      this.events.click(sq);
    }
  }

  private endDrag(): void {
    if (this.drag?.ghost) this.drag.ghost.remove();
    this.drag = null;
  }
}
