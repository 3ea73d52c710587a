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
 * The depth is 2–25 plies and the time whole seconds (at least 1), which it reads off the wall
 * clock in whole seconds (`time(NULL)`): a limit of N seconds ends its search at the N-th turn of
 * the second, N−1 to N seconds in. So a move time under a second is had by the depth alone: the
 * translator picks it from the move time and khetai's answer times in this game (khetaiDepth), and
 * passes the move time in whole seconds as a ceiling. Its iterative deepening plays the move of the
 * last depth but one (it keeps the move of the iteration before the one that ends the loop), so a
 * depth D answer is a move of depth D−1. It keeps no game (each call gets the board), so it claims
 * no draw.
 */
import { performance } from 'node:perf_hooks';
import {
  ANUBIS,
  type Dialect,
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

/** One answer of khetai's: the depth it was asked for and how long it took, in ms. */
interface KhetaiAnswer {
  depth: number;
  ms: number;
}

/**
 * How many times longer khetai takes for each ply more: the median ratio of its answer times at
 * depths 3 and 4 over the same positions was about 7 (2 → 3 about 3.5, 4 → 5 about 15;
 * docs/match.md, "Other engines").
 */
export const KHETAI_GROWTH = 8;

/** Before its first answer in a game: a depth 3 answer takes about 20 ms (measured 6–23 ms). */
const KHETAI_PRIOR: KhetaiAnswer = { depth: 3, ms: 20 };

/** The depths khetai takes. */
const KHETAI_MIN_DEPTH = 2;
const KHETAI_MAX_DEPTH = 25;

/**
 * The depth for khetai's next move from the move time the clock allows (`budgetMs`) and its last
 * answer in this game: the deepest whose expected time fits the budget, expecting KHETAI_GROWTH
 * times the last answer's time for each ply deeper than it (and a KHETAI_GROWTH-th for each ply
 * shallower). So the depth rises while the last answer took well under the budget and falls when it
 * took more. At least 2, at most `maxDepth` (25 at most).
 */
export function khetaiDepth(budgetMs: number, last: KhetaiAnswer | undefined, maxDepth = KHETAI_MAX_DEPTH): number {
  const base = last ?? KHETAI_PRIOR;
  const ms = Math.max(0.1, base.ms); // an answer measured as no time at all must not allow any depth
  const top = Math.min(KHETAI_MAX_DEPTH, Math.max(KHETAI_MIN_DEPTH, maxDepth));
  let depth = KHETAI_MIN_DEPTH;
  while (depth < top && ms * KHETAI_GROWTH ** (depth + 1 - base.depth) <= budgetMs) depth++;
  return depth;
}

/** khetai's square number (0 = a8, 79 = j1) as Thoth's square. */
const fromIndex = (i: number): number => (7 - Math.floor(i / 10)) * 10 + (i % 10);

export class KhetaiTranslator extends Translator {
  readonly protocol = 'khetai';
  private handshaking = false;
  /** The request being answered: its depth and when it was sent. */
  private asked?: { depth: number; at: number };
  /** Its last answer in this game (khetaiDepth). */
  private last?: KhetaiAnswer;

  /** `now`: the clock that times its answers, in ms. */
  constructor(
    dialect: Dialect,
    private readonly now: () => number = () => performance.now(),
  ) {
    super(dialect);
  }

  protected handshake(): Translation {
    this.handshaking = true;
    return { toEngine: ['ping'], toThoth: [] };
  }
  protected ping(): Translation {
    return { toEngine: ['ping'], toThoth: [] };
  }
  protected newGame(): Translation {
    this.last = undefined;
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
    const maxDepth = Math.min(KHETAI_MAX_DEPTH, Math.max(KHETAI_MIN_DEPTH, g.depth ?? KHETAI_MAX_DEPTH));
    let ms: number | undefined;
    if (g.movetime !== undefined) ms = g.movetime;
    else {
      const time = this.pos.side === 0 ? g.wtime : g.btime;
      const inc = (this.pos.side === 0 ? g.winc : g.binc) ?? 0;
      if (time !== undefined) ms = moveTimeFromClock(Math.max(0, time), inc, g.movestogo);
      else if (g.depth === undefined) return err('khetai needs a depth, a move time or a clock');
    }
    // a move time: the depth that fits it, and the time in whole seconds as a ceiling
    const depth = ms === undefined ? maxDepth : khetaiDepth(ms, this.last, maxDepth);
    const seconds = ms === undefined ? 3600 : Math.max(1, Math.round(ms / 1000));
    this.asked = { depth, at: this.now() };
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
      // its time and the depth of the move it plays (the depth asked but one)
      let info: string[] = [];
      if (this.asked !== undefined) {
        const ms = this.now() - this.asked.at;
        this.last = { depth: this.asked.depth, ms };
        info = [`info depth ${this.asked.depth - 1} time ${Math.round(ms)}`];
        this.asked = undefined;
      }
      const m = this.readMove(this.pos, text);
      if (m.ok) return [...info, `bestmove ${formatMove(m.value)}`];
      return [`info string error: khetai: ${m.error} in '${line}'`, `bestmove ${text.replace(/ /g, ',')}`];
    }
    if (line.startsWith('error')) {
      this.asked = undefined;
      return [`info string error: khetai: ${line}`, 'bestmove (none)'];
    }
    return [`info string ${this.protocol}: ${line}`];
  }
}
