/**
 * A game as the page keeps it: the edition, the starting KFEN and the moves, with what each
 * move's laser did (for drawing the beam and the piece it removed). Positions are replayed
 * from the start on demand; games are short and the core is fast.
 */
import {
  EDITIONS, formatMove, gameStatus, parseKfen, parseMove, toKfen, tracePath, type BeamPath, type EditionId,
  type GameStatus, type Position,
} from '../../core/index';

export interface PlyInfo {
  move: number;
  text: string;
  /** Colour that made the move. */
  side: number;
  /** The beam of the mover's laser after the move. */
  beam: BeamPath;
  /** Where the beam started and whether it struck the first square (a fixed laser). */
  laser: { square: number; dir: number; strikeFirst: boolean };
  /** Square and piece the laser removed (the whole code before removal), or -1 / 0. */
  killedSq: number;
  killedPiece: number;
  /** What the engine said about the move it played (for the record). */
  engine?: { scoreCp?: number; mate?: number; depth?: number; timeMs?: number };
}

/** Why a game ended that the position alone does not show. */
export interface Ending {
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  text: string;
  termination: string;
}

export class Game {
  readonly edition: EditionId;
  readonly startKfen: string;
  readonly plies: PlyInfo[] = [];
  /** An ending decided outside the board (time forfeit, resignation). */
  ending: Ending | null = null;

  constructor(edition: EditionId, startKfen: string) {
    this.edition = edition;
    this.startKfen = startKfen;
    const r = parseKfen(startKfen, edition);
    if (!r.ok) throw new Error(r.error.message);
  }

  get length(): number {
    return this.plies.length;
  }

  /** The position after `ply` moves (0 = the start). */
  positionAt(ply: number): Position {
    const r = parseKfen(this.startKfen, this.edition);
    if (!r.ok) throw new Error(r.error.message);
    const pos = r.value;
    for (let i = 0; i < ply && i < this.plies.length; i++) pos.make(this.plies[i].move);
    return pos;
  }

  /** Plays a legal move at the end of the game. */
  play(move: number): PlyInfo {
    const pos = this.positionAt(this.plies.length);
    const info = playPly(pos, move);
    this.plies.push(info);
    return info;
  }

  /** Plays a move given as text; throws when it is not legal. */
  playText(text: string): PlyInfo {
    const pos = this.positionAt(this.plies.length);
    const m = parseMove(pos, text);
    if (!m.ok) throw new Error(m.error.message);
    return this.play(m.value);
  }

  /** Drops the moves after `ply`. */
  truncate(ply: number): void {
    this.plies.length = Math.min(this.plies.length, ply);
    this.ending = null;
  }

  /** The game's state at its end. */
  status(): GameStatus {
    return gameStatus(this.positionAt(this.plies.length));
  }

  /** The result as a record writes it, with the reason. */
  result(): Ending | null {
    if (this.ending) return this.ending;
    const s = this.status();
    if (s.result === 'ongoing') return null;
    if (s.result === 'draw') return { result: '1/2-1/2', text: s.text, termination: 'normal' };
    return { result: s.winner === 0 ? '1-0' : '0-1', text: s.text, termination: 'normal' };
  }

  get over(): boolean {
    return this.result() !== null;
  }

  /** The `position` command for the engine at `ply`. */
  positionCommand(ply: number, extra: string[] = []): string {
    const moves = [...this.plies.slice(0, ply).map((p) => p.text), ...extra];
    return `position kfen ${this.startKfen}${moves.length ? ' moves ' + moves.join(' ') : ''}`;
  }

  kfenAt(ply: number): string {
    return toKfen(this.positionAt(ply));
  }

  colorName(c: number): string {
    return EDITIONS[this.edition].colorNames[c];
  }
}

/** What a legal move does in `pos` (the position is left after the move). */
export function playPly(pos: Position, move: number): PlyInfo {
  const ed = pos.edition;
  const side = pos.side;
  const text = formatMove(move);
  const killedSq = pos.make(move);
  const killedPiece = killedSq >= 0 ? pos.killedPieceAt(pos.ply - 1) : 0;
  // The beam ran over the board before the removal: put the removed piece back to trace it.
  const board = Uint8Array.from(pos.board);
  if (killedSq >= 0) board[killedSq] = killedPiece;
  const square = ed.laserSquare[side];
  const laser = ed.sphinx
    ? { square, dir: board[square] & 3, strikeFirst: false }
    : { square, dir: ed.laserDir[side], strikeFirst: true };
  const beam = tracePath(board, laser.square, laser.dir, laser.strikeFirst);
  return { move, text, side, beam, laser, killedSq, killedPiece };
}
