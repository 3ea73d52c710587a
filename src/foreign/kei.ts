/**
 * KEI, the Khet Engine Interface of dandailey/khet (docs/ENGINE_SPEC.md §7.2 there): `kei` →
 * `id name …` + `keiok`, `isready` → `readyok`, `newgame [setup]`, `position kfen <KFEN> [moves
 * …]` or `position startpos [setup] [moves …]`, `go [level n] [movetime ms] [depth d] [nodes n]`
 * (no clock: a clock becomes a move time, translator.ts) → `info depth d score s nodes n pv …`
 * and `bestmove <move>` (`(none)` when there is none), `stop`, `quit`. Its KFEN has other
 * letters: each piece is two characters, upper case Silver: `F-` Pharaoh, `S` Sphinx and `A`
 * Anubis with `n e s w`, `P` Pyramid with `1`–`4` (its mirror facing NE, SE, SW, NW), `C` Scarab
 * with `/` or `\`; then the side, `s` or `r`. Moves: `c7-d6`, swaps `e5xf4`, rotations `e5+` /
 * `e5-` (a Scarab's turn and a Sphinx's are written `+`). A game is drawn after 300 plies.
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
  STEP,
  SWAP,
  colorOf,
  kindOf,
  legalMoves,
  moveFrom,
  moveTo,
  moveType,
  oriOf,
  parseSquare,
  squareName,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { BARE_SCORE_RE, type ForeignGo, type Translation, Translator, moveTimeFromClock } from './translator';

const DIRS = 'nesw';

/**
 * One piece as KEI writes it. The Scarab's character names its mirror by what it does to a beam:
 * KEI's `/` sends a beam travelling S to the E, as Thoth's Scarab facing N or S does.
 */
function keiPiece(p: number): string {
  const color = colorOf(p);
  const o = oriOf(p);
  let s: string;
  switch (kindOf(p)) {
    case PHARAOH:
      s = 'F-';
      break;
    case SPHINX:
      s = `S${DIRS[o]}`;
      break;
    case ANUBIS:
      s = `A${DIRS[o]}`;
      break;
    case PYRAMID:
      s = `P${o + 1}`;
      break;
    case SCARAB:
      s = `C${(o & 1) === 0 ? '/' : '\\'}`;
      break;
    default:
      throw new Error('KEI has no such piece');
  }
  return color === 0 ? s : s[0].toLowerCase() + s[1];
}

/** A position in KEI's KFEN: eight ranks from rank 8, then the side to move. */
export function keiKfen(pos: Position): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 10; file++) {
      const p = pos.board[rank * 10 + file];
      if (p === 0) {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      row += keiPiece(p);
    }
    if (empty > 0) row += String(empty);
    rows.push(row);
  }
  return `${rows.join('/')} ${pos.side === 0 ? 's' : 'r'}`;
}

const KEI_MOVE = /^([a-j][1-8])(?:([-x])([a-j][1-8])|([+-]))$/;

export class KeiTranslator extends Translator {
  readonly protocol = 'kei';

  protected handshake(): Translation {
    return { toEngine: ['kei'], toThoth: [] };
  }
  protected ping(): Translation {
    return { toEngine: ['isready'], toThoth: [] };
  }
  protected newGame(): Translation {
    return { toEngine: ['newgame'], toThoth: [] };
  }
  protected setOption(): Translation {
    return this.refuse('setoption: KEI engines have no options');
  }
  protected positionLines(): string[] {
    const { start } = this.replay();
    const moves = this.foreignMoves((p, m) => this.writeMove(p, m));
    return [`position kfen ${keiKfen(start)}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`];
  }
  protected goLines(g: ForeignGo): Result<string[], string> {
    if (g.infinite) return err('KEI has no go infinite');
    const parts: string[] = [];
    const time = this.pos.side === 0 ? g.wtime : g.btime;
    const inc = (this.pos.side === 0 ? g.winc : g.binc) ?? 0;
    if (g.movetime !== undefined) parts.push(`movetime ${Math.max(1, g.movetime)}`);
    else if (time !== undefined) parts.push(`movetime ${moveTimeFromClock(Math.max(0, time), inc, g.movestogo)}`);
    if (g.depth !== undefined) parts.push(`depth ${Math.max(1, g.depth)}`);
    if (g.nodes !== undefined) parts.push(`nodes ${Math.max(1, g.nodes)}`);
    if (parts.length === 0) return err('KEI needs a move time, a clock, a depth or a node count');
    return ok([`go ${parts.join(' ')}`]);
  }
  protected stopLines(): string[] {
    return ['stop'];
  }
  protected quitLines(): string[] {
    return ['quit'];
  }
  readMove(pos: Position, text: string): Result<number, string> {
    const m = KEI_MOVE.exec(text);
    if (!m) return err(`'${text}' is not a KEI move (e.g. c7-d6, e5xf4, e5+)`);
    const from = parseSquare(m[1]);
    const legal = legalMoves(pos).filter((x) => moveFrom(x) === from);
    let found: number | undefined;
    if (m[4] !== undefined) {
      // a rotation; a Scarab's and a Sphinx's only turn may be written either way
      const want = m[4] === '+' ? ROT_CW : ROT_CCW;
      const turns = legal.filter((x) => moveType(x) === ROT_CW || moveType(x) === ROT_CCW);
      const kind = kindOf(pos.board[from]);
      found =
        turns.find((x) => moveType(x) === want) ??
        (kind === SCARAB || kind === SPHINX || kind === PHARAOH ? turns[0] : undefined);
    } else {
      const to = parseSquare(m[3]);
      const type = m[2] === 'x' ? SWAP : STEP;
      found = legal.find((x) => moveTo(x) === to && moveType(x) === type);
    }
    return found === undefined ? err(`${text}: illegal here`) : ok(found);
  }
  writeMove(pos: Position, m: number): string {
    const from = squareName(moveFrom(m));
    switch (moveType(m)) {
      case STEP:
        return `${from}-${squareName(moveTo(m))}`;
      case SWAP:
        return `${from}x${squareName(moveTo(m))}`;
      case ROT_CW:
        return `${from}+`;
      default: {
        // KEI writes a Scarab's and a Sphinx's only turn as `+`
        const kind = kindOf(pos.board[moveFrom(m)]);
        return kind === SCARAB || kind === SPHINX ? `${from}+` : `${from}-`;
      }
    }
  }
  protected engineLine(line: string): string[] {
    if (line === 'keiok') return ['uciok'];
    if (line === 'readyok' || line.startsWith('id ')) return [line];
    if (line.startsWith('info ') && !line.startsWith('info string')) {
      // KEI's score is a bare number of centipawns
      const info = this.readInfo(line.replace(BARE_SCORE_RE, 'score cp $1'));
      if (info !== undefined) return [this.thothInfo(info)];
    }
    return [`info string ${this.protocol}: ${line}`];
  }
}
