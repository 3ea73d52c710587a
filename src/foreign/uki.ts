/**
 * UKI, the protocol of MIT 6.172's Khet engines (2011; ddket, Don Dailey's engine, and the
 * course's student programs), as ddket speaks it: `uki` → `ukiok`, `isready` → `readyok`,
 * `ukinewgame`, `setoption name X value Y`, `position classic|imhotep|dynasty [moves …]` or
 * `position fen <board> w|b [moves …]` (the board: 80 squares from a8 to j1 rank by rank, two
 * letters each: `h` Sphinx, `p` Pharaoh, `a` Anubis, `y` Pyramid, `s` Scarab, upper case Silver,
 * then `u r d l` for the way it faces), moves `c4b5` and rotations `c5R` / `c5L`, `go wtime btime
 * winc binc` (ms), `go depth N`, `go nodes N`, `go infinite`, `stop`, `quit`. docs/match.md,
 * "Other engines", has what was checked against ddket.
 */
import {
  ANUBIS,
  PHARAOH,
  PYRAMID,
  type Position,
  ROT_CCW,
  ROT_CW,
  SCARAB,
  SPHINX,
  SQUARES,
  colorOf,
  kindOf,
  moveFrom,
  moveType,
  oriOf,
  parseMove,
  squareName,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { type ForeignGo, type Translation, Translator } from './translator';

const UKI_LETTER: Record<number, string> = {
  [SPHINX]: 'h',
  [PHARAOH]: 'p',
  [ANUBIS]: 'a',
  [PYRAMID]: 'y',
  [SCARAB]: 's',
};
const FACING = 'urdl';

/**
 * One square as UKI writes it. A Pyramid's letter names the corner its mirror faces turned a
 * quarter clockwise (Thoth's N, a mirror facing NE, is `r`); a Scarab's is that of the Pyramid
 * with the same mirror, turned half round for Red (as ddket writes its Classic: Silver `r`/`d`,
 * Red `l`/`u`); a Pharaoh faces `u` (Silver) or `d` (Red).
 */
function ukiSquare(p: number): string {
  if (p === 0) return '--';
  const color = colorOf(p);
  const kind = kindOf(p);
  let o = oriOf(p);
  if (kind === PYRAMID) o = (o + 1) & 3;
  else if (kind === SCARAB) o = (o + 1 + 2 * color) & 3;
  else if (kind === PHARAOH) o = 2 * color;
  const letter = UKI_LETTER[kind] ?? '?';
  return (color === 0 ? letter.toUpperCase() : letter) + FACING[o];
}

/** The board as UKI's `position fen` takes it, with the side to move: `<80 squares> w|b`. */
export function ukiBoard(pos: Position): string {
  let s = '';
  for (let rank = 7; rank >= 0; rank--)
    for (let file = 0; file < 10; file++) s += ukiSquare(pos.board[rank * 10 + file]);
  if (s.length !== SQUARES * 2) throw new Error('uki board');
  return `${s} ${pos.side === 0 ? 'w' : 'b'}`;
}

const UKI_MOVE = /^[a-j][1-8](?:[a-j][1-8]|[RL])$/;

export class UkiTranslator extends Translator {
  readonly protocol = 'uki';

  protected handshake(): Translation {
    return { toEngine: ['uki'], toThoth: [] };
  }
  protected ping(): Translation {
    return { toEngine: ['isready'], toThoth: [] };
  }
  protected newGame(): Translation {
    return { toEngine: ['ukinewgame'], toThoth: [] };
  }
  protected setOption(line: string): Translation {
    return { toEngine: [line.trim()], toThoth: [] };
  }
  protected positionLines(): string[] {
    const { start } = this.replay();
    const moves = this.foreignMoves((p, m) => this.writeMove(p, m));
    return [`position fen ${ukiBoard(start)}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`];
  }
  protected goLines(g: ForeignGo): Result<string[], string> {
    if (g.movetime !== undefined) return err('UKI has no movetime (use a clock, depth or nodes)');
    const parts: string[] = [];
    for (const k of ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'depth', 'nodes'] as const) {
      const v = g[k];
      if (v !== undefined) parts.push(`${k} ${Math.max(0, v)}`);
    }
    if (g.infinite) parts.push('infinite');
    return ok([`go${parts.map((p) => ` ${p}`).join('')}`]);
  }
  protected stopLines(): string[] {
    return ['stop'];
  }
  protected quitLines(): string[] {
    return ['quit'];
  }
  readMove(pos: Position, text: string): Result<number, string> {
    if (!UKI_MOVE.test(text)) return err(`'${text}' is not a UKI move (e.g. c4b5, c5R, c5L)`);
    const r = parseMove(pos, text);
    return r.ok ? r : err(r.error.message);
  }
  writeMove(pos: Position, m: number): string {
    const t = moveType(m);
    if (t === ROT_CW || t === ROT_CCW) return squareName(moveFrom(m)) + (t === ROT_CW ? 'R' : 'L');
    void pos;
    return squareName(moveFrom(m)) + squareName((m >>> 7) & 127);
  }
  protected engineLine(line: string): string[] {
    if (line === 'ukiok') return ['uciok'];
    if (line === 'readyok' || line.startsWith('id ') || line.startsWith('option ')) return [line];
    const info = this.readInfo(line);
    if (info !== undefined) return [this.thothInfo(info)];
    return [`info string ${this.protocol}: ${line}`];
  }
}
