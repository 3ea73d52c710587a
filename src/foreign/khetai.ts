/**
 * khetai (jkugs/khetai), a Ruby gem with a C core: no protocol of its own, one function,
 * `KhetAI.move(board, player, max_depth, max_seconds)` → `[start, end, rotation]`. It is driven
 * through scripts/khetai-bridge.rb, which reads one line per call and prints the answer:
 *
 *   > ping                                   < pong
 *   > move <player> <depth> <seconds> <80 squares>   < move <start> <end> <rotation>  (or: error <text>)
 *   > quit
 *
 * The board: 80 squares from a8 to j1, rank by rank, two characters each (`--` empty): `l` Sphinx,
 * `x` Pharaoh, `a` Anubis, `p` Pyramid, `s` Scarab, lower case Silver and upper case Red, then
 * 0–3 for N, E, S, W (a Pyramid's mirror facing NE, SE, SW, NW; a Scarab's 0 and 2 are Thoth's
 * N/S). Squares are numbered 0–79 the same way; rotation 1 is clockwise, −1 counter-clockwise.
 * The depth is 2–25 plies and the time whole seconds (at least 1): a move time under a second
 * cannot be had. It keeps no game (each call gets the board), so it claims no draw.
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
  formatMove,
  kindOf,
  legalMoves,
  moveFrom,
  moveTo,
  moveType,
  oriOf,
  squareName,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { type ForeignGo, type Translation, Translator, moveTimeFromClock } from './translator';

const KHETAI_LETTER: Record<number, string> = {
  [SPHINX]: 'l',
  [PHARAOH]: 'x',
  [ANUBIS]: 'a',
  [PYRAMID]: 'p',
  [SCARAB]: 's',
};

/** The board as the bridge passes it to KhetAI.move: 80 squares of two characters, from a8. */
export function khetaiBoard(pos: Position): string {
  let s = '';
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 10; file++) {
      const p = pos.board[rank * 10 + file];
      if (p === 0) {
        s += '--';
        continue;
      }
      const letter = KHETAI_LETTER[kindOf(p)] ?? '?';
      s += (colorOf(p) === 0 ? letter : letter.toUpperCase()) + String(kindOf(p) === PHARAOH ? 0 : oriOf(p));
    }
  }
  return s;
}

/** khetai's square number (0 = a8, 79 = j1) as Thoth's square. */
const fromIndex = (i: number): number => (7 - Math.floor(i / 10)) * 10 + (i % 10);

export class KhetaiTranslator extends Translator {
  readonly protocol = 'khetai';
  private handshaking = false;

  protected handshake(): Translation {
    this.handshaking = true;
    return { toEngine: ['ping'], toThoth: [] };
  }
  protected ping(): Translation {
    return { toEngine: ['ping'], toThoth: [] };
  }
  protected newGame(): Translation {
    return { toEngine: [], toThoth: [] };
  }
  protected setOption(): Translation {
    return this.refuse('setoption: khetai has no options');
  }
  protected positionLines(): string[] {
    return []; // the board goes with each move request
  }
  protected goLines(g: ForeignGo): Result<string[], string> {
    if (g.nodes !== undefined) return err('khetai has no node limit');
    if (g.infinite) return err('khetai cannot search until stopped');
    let depth = 25;
    let ms = 3_600_000;
    if (g.depth !== undefined) depth = Math.min(25, Math.max(2, g.depth));
    if (g.movetime !== undefined) ms = g.movetime;
    else {
      const time = this.pos.side === 0 ? g.wtime : g.btime;
      const inc = (this.pos.side === 0 ? g.winc : g.binc) ?? 0;
      if (time !== undefined) ms = moveTimeFromClock(Math.max(0, time), inc, g.movestogo);
      else if (g.depth === undefined) return err('khetai needs a depth, a move time or a clock');
    }
    const seconds = Math.max(1, Math.round(ms / 1000));
    return ok([`move ${this.pos.side} ${depth} ${seconds} ${khetaiBoard(this.pos)}`]);
  }
  protected stopLines(): string[] {
    return []; // it cannot be stopped: it answers when its time is up
  }
  protected quitLines(): string[] {
    return ['quit'];
  }
  /** `<start> <end> <rotation>` as the bridge prints it. */
  readMove(pos: Position, text: string): Result<number, string> {
    const m = /^(\d+) (\d+) (-?\d+)$/.exec(text.trim());
    if (!m) return err(`'${text}' is not a khetai answer (start end rotation)`);
    const [s, e, r] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (s > 79 || e > 79 || r < -1 || r > 1) return err(`'${text}': no such squares or rotation`);
    const from = fromIndex(s);
    const to = fromIndex(e);
    const legal = legalMoves(pos).filter((x) => moveFrom(x) === from);
    let found: number | undefined;
    if (r !== 0 && s === e) {
      const want = r === 1 ? ROT_CW : ROT_CCW;
      const turns = legal.filter((x) => moveType(x) === ROT_CW || moveType(x) === ROT_CCW);
      const kind = kindOf(pos.board[from]);
      found = turns.find((x) => moveType(x) === want) ?? (kind === SCARAB || kind === SPHINX ? turns[0] : undefined);
    } else if (r === 0) {
      found = legal.find((x) => moveTo(x) === to && (moveType(x) === STEP || moveType(x) === SWAP));
    }
    if (found !== undefined) return ok(found);
    return err(`${squareName(from)}${s === e ? (r > 0 ? '+' : '-') : squareName(to)} (${text}): illegal here`);
  }
  writeMove(_pos: Position, m: number): string {
    return formatMove(m);
  }
  protected engineLine(line: string): string[] {
    if (line === 'pong') {
      if (!this.handshaking) return ['readyok'];
      this.handshaking = false;
      return ['id name khetai', 'id author jkugs', 'uciok'];
    }
    if (line.startsWith('move ')) {
      const text = line.slice(5);
      const m = this.readMove(this.pos, text);
      if (m.ok) return [`bestmove ${formatMove(m.value)}`];
      return [`info string error: khetai: ${m.error} in '${line}'`, `bestmove ${text.replace(/ /g, ',')}`];
    }
    if (line.startsWith('error')) return [`info string error: khetai: ${line}`, 'bestmove (none)'];
    return [`info string ${this.protocol}: ${line}`];
  }
}
