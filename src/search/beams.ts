/**
 * Both lasers' beams at every ply of the search, traced once and passed down.
 *
 * At each node the search needs the beam of the side to move ("ours": what its shot would take,
 * which moves can change it) and the enemy's ("theirs": is our Pharaoh in it, what it threatens).
 * A move changes a beam only where it touches it, so a child inherits most of its beams:
 * - its enemy's beam is the shot the move just fired (Position.makeTraced writes its mask into
 *   the child's slot); only when that shot removed a piece does the beam now run on past it;
 * - its own beam is the parent's enemy beam unless the move stepped, turned or swapped a piece
 *   on it or its shot removed a piece on it.
 * After a null move the board is unchanged: the two beams trade places.
 */
import { PHARAOH, bbHas, colorOf, kindOf, moveFrom, moveTo, type Position } from '../core/index';

export class Beams {
  /** Our beam's squares at each ply: ourMask[ply * 3 .. ply * 3 + 2]. */
  readonly ourMask: Int32Array;
  /** The square our beam would kill at each ply, or -1. */
  readonly ourKill: Int32Array;
  readonly theirMask: Int32Array;
  readonly theirKill: Int32Array;
  /** The piece each beam would kill at each ply (0: none), for the network's inputs. */
  readonly ourKillPiece: Int32Array;
  readonly theirKillPiece: Int32Array;

  constructor(maxPly: number) {
    this.ourMask = new Int32Array(maxPly * 3 + 3);
    this.ourKill = new Int32Array(maxPly + 1);
    this.theirMask = new Int32Array(maxPly * 3 + 3);
    this.theirKill = new Int32Array(maxPly + 1);
    this.ourKillPiece = new Int32Array(maxPly + 1);
    this.theirKillPiece = new Int32Array(maxPly + 1);
  }

  /** The pieces the two beams at `ply` would kill, as the board is now. */
  private victims(pos: Position, ply: number): void {
    const o = this.ourKill[ply];
    const t = this.theirKill[ply];
    this.ourKillPiece[ply] = o >= 0 ? pos.board[o] : 0;
    this.theirKillPiece[ply] = t >= 0 ? pos.board[t] : 0;
  }

  /** Traces both beams of `pos` from scratch into slot `ply`. */
  trace(pos: Position, ply: number): void {
    this.ourKill[ply] = pos.beamMask(pos.side, this.ourMask, ply * 3);
    this.theirKill[ply] = pos.beamMask(pos.side ^ 1, this.theirMask, ply * 3);
    this.victims(pos, ply);
  }

  /**
   * The beams at `ply` after the parent (slot ply − 1) made the last move of `pos` with
   * makeTraced(m, theirMask, ply * 3) (or, for a move that left the parent's beam alone, passOn
   * and makeUntouched), or a null move.
   */
  afterMove(pos: Position, ply: number): void {
    const parent = (ply - 1) * 3;
    const at = ply * 3;
    const m = pos.moveAt(pos.ply - 1);
    const t = pos.killedAt(pos.ply - 1);
    if (m === 0 && t < 0) {
      // a null move: the board is as it was
      this.copy(this.theirMask, parent, this.ourMask, at);
      this.ourKill[ply] = this.theirKill[ply - 1];
      this.copy(this.ourMask, parent, this.theirMask, at);
      this.theirKill[ply] = this.ourKill[ply - 1];
      this.ourKillPiece[ply] = this.theirKillPiece[ply - 1];
      this.theirKillPiece[ply] = this.ourKillPiece[ply - 1];
      return;
    }
    // the enemy's beam: the shot just fired, which runs on where it removed a whole piece
    if (t < 0) this.theirKill[ply] = -1;
    else if (pos.board[t] !== 0)
      this.theirKill[ply] = t; // a stack lost its top: the beam still stops there
    else this.theirKill[ply] = pos.beamMask(pos.side ^ 1, this.theirMask, at);
    // our beam: the parent's enemy beam, unless the move or its shot touched it
    const pm = this.theirMask;
    const from = moveFrom(m);
    const to = moveTo(m);
    if (bbHas(pm, parent, from) || bbHas(pm, parent, to) || (t >= 0 && bbHas(pm, parent, t))) {
      this.ourKill[ply] = pos.beamMask(pos.side, this.ourMask, at);
    } else {
      this.copy(pm, parent, this.ourMask, at);
      this.ourKill[ply] = this.theirKill[ply - 1];
    }
    this.victims(pos, ply);
  }

  /**
   * Before a move that leaves our beam at `ply` alone: the shot it fires is our beam as it is,
   * so its squares go to the child's enemy slot as makeTraced would have written them.
   */
  passOn(ply: number): void {
    this.copy(this.ourMask, ply * 3, this.theirMask, ply * 3 + 3);
  }

  private copy(src: Int32Array, from: number, dst: Int32Array, to: number): void {
    dst[to] = src[from];
    dst[to + 1] = src[from + 1];
    dst[to + 2] = src[from + 2];
  }

  /** Whether the enemy beam at `ply` would hit our Pharaoh (Khet's check). */
  inCheck(pos: Position, ply: number): boolean {
    const t = this.theirKill[ply];
    if (t < 0) return false;
    const p = pos.board[t];
    return kindOf(p) === PHARAOH && colorOf(p) === pos.side;
  }
}
