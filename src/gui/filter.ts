/**
 * Which protocol commands a page may send to the engine. The page is a web page: whatever it
 * sends is checked here against a strict grammar, so a page (or anything that got hold of the
 * token) can drive a game and an analysis, but cannot make the engine quit, write files, run a
 * benchmark or do anything else the protocol may offer.
 */
import { err, ok, type Result } from '../core/result';
import { isMoveText } from '../core/notation';
import { isSetupName } from '../core/setups';

/** The longest line forwarded (a `position … moves …` of a very long game fits). */
const MAX_LINE = 16384;

/** Options a page may set (compared case-insensitively, as the protocol does). */
const ALLOWED_OPTIONS: readonly string[] = [
  'Hash',
  'Clear Hash',
  'Threads',
  'MultiPV',
  'Ponder',
  'Move Overhead',
  'UCI_Variant',
  'PharaohRotation',
  'TwoScarabRotations',
  'SwapOntoReserved',
  'SwapWithSphinx',
  'NoRemovalDraw',
  'UCI_LimitStrength',
  'UCI_Elo',
  'Skill Level',
  'UCI_AnalyseMode',
  'UCI_ShowWDL',
];

const SIMPLE = new Set(['uci', 'isready', 'ucinewgame', 'stop', 'ponderhit']);
const GO_NUMERIC = new Set(['wtime', 'btime', 'winc', 'binc', 'movestogo', 'depth', 'nodes', 'mate', 'movetime']);
const GO_FLAGS = new Set(['infinite', 'ponder']);
const KFEN_PLACEMENT_RE = /^[0-9A-Za-z^<>/]{1,200}$/;
const VALUE_RE = /^[A-Za-z0-9_.+-]{1,32}$/;
const INT_RE = /^\d{1,10}$/;

/** Why a page's command is not forwarded, for the page. */
export interface CommandRefusal {
  reason: string;
}

/** The normalised line to forward, or why not. */
export type FilterResult = Result<string, CommandRefusal>;

const refuse = (reason: string): { ok: false; error: CommandRefusal } => err({ reason });

/**
 * The most a page may ask of the machine: `Hash` in MB and `Threads` (the server's full
 * strength, sized to the machine). A page holding the token set Hash 8192 on any machine.
 */
export interface PageLimits {
  hashMb?: number;
  threads?: number;
}

/**
 * Checks one command line from a page. Returns the normalised line (tokens joined by one space)
 * when it may be forwarded, or the reason it may not.
 */
export function filterCommand(raw: unknown, limits: PageLimits = {}): FilterResult {
  if (typeof raw !== 'string') return refuse('not a string');
  if (raw.length > MAX_LINE) return refuse(`longer than ${MAX_LINE} characters`);
  // One line of printable ASCII: no second command smuggled in after a newline.
  if (!/^[\x20-\x7e\t]*$/.test(raw)) return refuse('only one line of printable ASCII is allowed');
  const t = raw.trim().split(/\s+/).filter(Boolean);
  if (t.length === 0) return refuse('empty command');
  const cmd = t[0];
  const line = t.join(' ');
  if (SIMPLE.has(cmd)) {
    return t.length === 1 ? ok(line) : refuse(`'${cmd}' takes no arguments`);
  }
  switch (cmd) {
    case 'setoption':
      return checkSetoption(t, line, limits);
    case 'position':
      return checkPosition(t, line);
    case 'go':
      return checkGo(t, line);
    default:
      return refuse(`'${cmd.slice(0, 40)}' is not a command a page may send`);
  }
}

function checkSetoption(t: string[], line: string, limits: PageLimits): FilterResult {
  if (t[1] !== 'name') return refuse("setoption: expected 'name'");
  const vi = t.indexOf('value');
  const name = t.slice(2, vi < 0 ? t.length : vi).join(' ');
  if (!ALLOWED_OPTIONS.some((o) => o.toLowerCase() === name.toLowerCase())) {
    return refuse(`setoption: option '${name.slice(0, 40)}' may not be set from the page`);
  }
  if (vi >= 0) {
    const value = t.slice(vi + 1);
    if (value.length !== 1 || !VALUE_RE.test(value[0])) return refuse('setoption: bad value');
    const most =
      name.toLowerCase() === 'hash' ? limits.hashMb : name.toLowerCase() === 'threads' ? limits.threads : undefined;
    if (most !== undefined && !(Number(value[0]) <= most)) {
      return refuse(
        `setoption: ${name.toLowerCase() === 'hash' ? 'Hash' : 'Threads'} may be at most ${most}${name.toLowerCase() === 'hash' ? ' MB' : ''} from the page (sized to this machine)`,
      );
    }
  }
  return ok(line);
}

function checkPosition(t: string[], line: string): FilterResult {
  let i = 1;
  const what = t[i++];
  if (what === 'startpos' || (what !== undefined && isSetupName(what))) {
    // nothing more
  } else if (what === 'setup') {
    if (!isSetupName(t[i++] ?? '')) return refuse('position: unknown setup');
  } else if (what === 'kfen' || what === 'fen') {
    const [placement, side, plies, moveNo] = t.slice(i, i + 4);
    i += 4;
    if (
      !KFEN_PLACEMENT_RE.test(placement ?? '') ||
      !/^[srg]$/.test(side ?? '') ||
      !INT_RE.test(plies ?? '') ||
      !INT_RE.test(moveNo ?? '')
    ) {
      return refuse('position: malformed KFEN');
    }
  } else {
    return refuse('position: expected startpos, setup <name> or kfen <KFEN>');
  }
  if (i < t.length) {
    if (t[i] !== 'moves') return refuse(`position: unexpected '${t[i].slice(0, 20)}'`);
    for (const m of t.slice(i + 1)) {
      if (!isMoveText(m)) return refuse(`position: '${m.slice(0, 20)}' is not a move`);
    }
  }
  return ok(line);
}

function checkGo(t: string[], line: string): FilterResult {
  for (let i = 1; i < t.length; i++) {
    const w = t[i];
    if (GO_NUMERIC.has(w)) {
      if (!INT_RE.test(t[i + 1] ?? '')) return refuse(`go: ${w} needs a whole number`);
      i++;
    } else if (GO_FLAGS.has(w)) {
      // nothing
    } else if (w === 'searchmoves') {
      const rest = t.slice(i + 1);
      if (rest.length === 0 || !rest.every((m) => isMoveText(m))) return refuse('go: bad searchmoves');
      break;
    } else {
      return refuse(`go: '${w.slice(0, 20)}' is not allowed`);
    }
  }
  return ok(line);
}
