/**
 * The protocol of AlexKent3141/Khet2-AI (its protocol.txt and CommsHandler.cpp): no handshake and
 * no ping (an unknown command is answered `info string Unrecognised message type: <line>`, which
 * serves as one), `newgame`, `position standard|dynasty|imhotep|<Khet string> <0|1> m1 m2 …` (no
 * `moves` word), `go depth N`, `go movetime N` or `go infinite` (one of them; a clock becomes a
 * move time, translator.ts), `stop`, `quit`; `info time T depth D score S` (or `mate M`),
 * `bestmove <move>` or `bestmove none` when it sees the game as over. The Khet string: ranks 8 to
 * 1 separated by `/`, a digit 1–9 for empty squares (a wholly empty rank is written empty),
 * letters `x` Sphinx, `k` Pharaoh, `a` Anubis, `p` Pyramid, `s` Scarab (upper case Silver), each
 * but the Pharaoh followed by a digit 1–4 for N, E, S, W. Moves `h2g2`, `h2+`, `h2-`; a Scarab
 * turns only `+`. Its draws: threefold repetition and 100 plies without a capture.
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
  colorOf,
  kindOf,
  moveFrom,
  moveTo,
  moveType,
  oriOf,
  parseMove,
  squareName,
} from '../core/index';
import { err, ok, type Result } from '../core/result';
import { BARE_SCORE_RE, type ForeignGo, type Translation, Translator, moveTimeFromClock } from './translator';

const KHET2AI_LETTER: Record<number, string> = {
  [SPHINX]: 'x',
  [PHARAOH]: 'k',
  [ANUBIS]: 'a',
  [PYRAMID]: 'p',
  [SCARAB]: 's',
};

/** A position as Khet2-AI's `position` takes it: `<Khet string> <0|1>`. */
export function khet2aiString(pos: Position): string {
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
      const letter = KHET2AI_LETTER[kindOf(p)] ?? '?';
      row += colorOf(p) === 0 ? letter.toUpperCase() : letter;
      if (kindOf(p) !== PHARAOH) row += String(oriOf(p) + 1);
    }
    // its reader adds each digit alone ("10" would be 1 + 0): an empty rank is written empty
    if (empty > 0 && empty < 10) row += String(empty);
    rows.push(row);
  }
  return `${rows.join('/')} ${pos.side}`;
}

/** The answer Khet2-AI gives to `isready`, which it does not know: the ping's echo. */
const ECHO = 'info string Unrecognised message type: isready';

export class Khet2aiTranslator extends Translator {
  readonly protocol = 'khet2ai';
  /** A handshake waits for the echo of its ping. */
  private handshaking = false;

  protected handshake(): Translation {
    this.handshaking = true;
    return { toEngine: ['isready'], toThoth: [] };
  }
  protected ping(): Translation {
    return { toEngine: ['isready'], toThoth: [] };
  }
  protected newGame(): Translation {
    return { toEngine: ['newgame'], toThoth: [] };
  }
  protected setOption(): Translation {
    return this.refuse('setoption: Khet2-AI has no options');
  }
  protected positionLines(): string[] {
    const { start } = this.replay();
    const moves = this.foreignMoves((p, m) => this.writeMove(p, m));
    return [`position ${khet2aiString(start)}${moves.map((m) => ` ${m}`).join('')}`];
  }
  /**
   * Khet2-AI times a move by its own CPU time (clock()), which runs slower than the wall clock on
   * a busy machine: a move time is also ended by a `stop` when it has passed on the wall clock.
   */
  protected goLines(g: ForeignGo): Result<string[] | Translation, string> {
    if (g.nodes !== undefined) return err('Khet2-AI has no go nodes');
    if (g.infinite) return ok(['go infinite']);
    if (g.depth !== undefined) return ok([`go depth ${Math.max(1, g.depth)}`]);
    let ms = g.movetime;
    if (ms === undefined) {
      const time = this.pos.side === 0 ? g.wtime : g.btime;
      const inc = (this.pos.side === 0 ? g.winc : g.binc) ?? 0;
      if (time === undefined) return err('Khet2-AI needs a depth, a move time or a clock');
      ms = moveTimeFromClock(Math.max(0, time), inc, g.movestogo);
    }
    ms = Math.max(1, ms);
    return ok({ toEngine: [`go movetime ${ms}`], toThoth: [], stopAfterMs: ms });
  }
  protected stopLines(): string[] {
    return ['stop'];
  }
  protected quitLines(): string[] {
    return ['quit'];
  }
  readMove(pos: Position, text: string): Result<number, string> {
    if (!/^[a-j][1-8](?:[a-j][1-8]|[+-])$/.test(text)) return err(`'${text}' is not a Khet2-AI move (e.g. h2g2, h2+)`);
    const r = parseMove(pos, text);
    return r.ok ? r : err(r.error.message);
  }
  writeMove(pos: Position, m: number): string {
    const from = squareName(moveFrom(m));
    const t = moveType(m);
    if (t === ROT_CW || t === ROT_CCW) {
      // a Scarab turns only clockwise in Khet2-AI; the other turn is the same position
      const scarab = kindOf(pos.board[moveFrom(m)]) === SCARAB;
      return `${from}${t === ROT_CW || scarab ? '+' : '-'}`;
    }
    return from + squareName(moveTo(m));
  }
  /**
   * `bestmove none` while moves remain: its search found every move lost (it answers so after
   * `info … mate -N`), which its protocol means as giving up: a resignation for the referee.
   */
  override fromEngine(line: string): string[] {
    if (line.trim() === 'bestmove none') return ['info string resign', 'bestmove (none)'];
    return super.fromEngine(line);
  }

  protected engineLine(line: string): string[] {
    if (line === ECHO) {
      if (!this.handshaking) return ['readyok'];
      this.handshaking = false;
      return ['id name Khet2-AI', 'id author Alex Kent', 'uciok'];
    }
    if (line.startsWith('info ') && !line.startsWith('info string')) {
      // `info time T depth D score S`, or `… mate P` with P in plies: Thoth's score in moves
      const mate = /\bmate (-?)(\d+)/.exec(line);
      const text = mate
        ? line.replace(mate[0], `score mate ${mate[1]}${Math.ceil(Number(mate[2]) / 2)}`)
        : line.replace(BARE_SCORE_RE, 'score cp $1');
      const info = this.readInfo(text);
      if (info !== undefined) return [this.thothInfo(info)];
    }
    return [`info string ${this.protocol}: ${line}`];
  }
}
