/** What the board draws (its model) and what it tells (its events): board.ts and board-pointer.ts share them. */
import type { BeamPath, Position } from '../../../core/index';
import type { ThreatWords } from '../../../analysis/threat-words';
import type { LaserSource, PlyInfo } from '../state/move-effect';
import type { TargetKind } from '../state/selection';

export type { TargetKind };

export interface Arrow {
  from: number;
  to: number;
  /** A rotation: '+' clockwise, '-' counter-clockwise (then to === from). */
  rot?: '+' | '-';
  /** 'best' (the engine's choice), 'alt' (another line), 'pv' (a previewed line), 'threat' (a hit a defence parries). */
  style: 'best' | 'alt' | 'pv' | 'threat';
  label?: string;
}

export interface BoardModel {
  pos: Position;
  flipped: boolean;
  lastMove: { from: number; to: number } | null;
  selected: number;
  targets: Map<number, TargetKind>;
  /** Rotations the selected piece may make. */
  rotations: { cw: boolean; ccw: boolean };
  cursor: number;
  /** The beam to draw (the last move's), and an id so it animates once. */
  beam: { ply: PlyInfo; id: string } | null;
  /** Both lasers' paths in the shown position (the "show both lasers" option). */
  lasers: { side: number; beam: BeamPath; laser: LaserSource }[];
  /** Where the shot of the move under the pointer would go, before it is played. */
  aim: PlyInfo | null;
  arrows: Arrow[];
  interactive: boolean;
  /** The premove waiting for Thoth's move: its squares are marked, a rotation's way turned drawn. */
  premove?: { from: number; to: number; rot?: '+' | '-' } | null;
  /** Khet 1.0: a selected stack moves whole, or only its top obelisk (drawn so). */
  stackTop?: boolean;
  /** The danger map shown (one side's beam after any one of its moves), or null. */
  danger?: ThreatWords | null;
  /**
   * The board editor is open (state/editor.ts): any piece may be picked and dragged, a piece
   * dragged off the board is removed, and `faults` marks the squares its problems name.
   */
  editing?: boolean;
  /**
   * The shown move's drawings, as its comment keeps them (lichess's `[%cal]` arrows and `[%csl]`
   * marked squares, core/record-parse.ts commentDrawings): squares as numbers, a colour G R Y B.
   */
  notes?: { arrows: { from: number; to: number; color: string }[]; marks: { sq: number; color: string }[] };
  faults?: number[];
  /** Drawing by picks is on (state/drawings.ts): the first square picked (-1 none yet), else undefined. */
  drawFrom?: number;
  /** The move to animate (once per id): a slide, a swap, or a turn. */
  motion: { id: string; from: number; to: number; rot?: '+' | '-'; swap?: boolean } | null;
}

export interface BoardEvents {
  /** A press on a square; return true when the piece there may be dragged. */
  press(sq: number): boolean;
  click(sq: number): void;
  drop(from: number, to: number): void;
  rotate(dir: '+' | '-'): void;
  /** A right-drag (an arrow) or a right-click (a circle, `from` = `to`), with Shift and Alt as held. */
  draw?(from: number, to: number, shift: boolean, alt: boolean): void;
  /** The pointer is over a target square, a rotate button, or neither (null). */
  aim(target: number | '+' | '-' | null): void;
}
