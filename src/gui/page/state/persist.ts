/**
 * What survives a reload: the settings (localStorage, shared by the tabs) and the game (kept per
 * tab in sessionStorage, so that two tabs keep two games, and the last one also in localStorage
 * for a new tab). Plain JSON; reading it back checks every move against the rules, and anything
 * unreadable is dropped with a reason instead of breaking the page.
 */
import { isEditionId, isSetupName } from '../../../core/index';
import { err, ok, type Result } from '../../../core/result';
import { restoreClock, newClock } from './clock';
import {
  DEFAULT_SETTINGS,
  endPosition,
  freshView,
  isOver,
  type Ending,
  type Mode,
  type PageState,
  type Settings,
} from './state';
import { DANGER_VIEWS, LEVEL_COUNT, type DangerView } from './state-types';
import {
  addMove,
  newTree,
  pathExists,
  positionAt,
  type EngineNote,
  type GameTree,
  type MoveNode,
  type NodeExtra,
  type Path,
} from './tree';
import { parseMove } from '../../../core/index';

export const SETTINGS_KEY = 'thoth.settings';
export const GAME_KEY = 'thoth.game';

/** A move and what follows it, as stored. */
interface SavedNode {
  m: string;
  clk?: [number, number];
  eng?: EngineNote;
  com?: string;
  nags?: number[];
  /** Children: the first continues the line, the others are variations. */
  c?: SavedNode[];
}

export interface SavedGame {
  v: 1;
  edition: string;
  startKfen: string;
  moves: SavedNode[];
  mode: Mode;
  humanSide: number;
  path: number[];
  ending: Ending | null;
  /** Time control and the clocks when saved (they resume from there: a closed page stops them). */
  clock: { baseMs: number; incMs: number; remaining: [number, number]; running: number } | null;
  tags: [string, string][];
  flipped: boolean;
  /** The players as the record names them (absent: the mode's defaults). */
  players?: [string, string];
}

function saveNodes(children: readonly MoveNode[]): SavedNode[] {
  return children.map((n) => {
    const o: SavedNode = { m: n.ply.text };
    if (n.clocks) o.clk = [Math.round(n.clocks[0]), Math.round(n.clocks[1])];
    if (n.engine) o.eng = n.engine;
    if (n.comment !== undefined) o.com = n.comment;
    if (n.nags) o.nags = [...n.nags];
    if (n.children.length > 0) o.c = saveNodes(n.children);
    return o;
  });
}

export function saveGame(s: PageState, now: number): SavedGame {
  const c = s.clock;
  return {
    v: 1,
    edition: s.tree.edition,
    startKfen: s.tree.startKfen,
    moves: saveNodes(s.tree.children),
    mode: s.mode,
    humanSide: s.humanSide,
    path: [...s.path],
    ending: s.ending,
    clock: c
      ? {
          baseMs: c.baseMs,
          incMs: c.incMs,
          remaining: [
            Math.round(c.remaining[0] - (c.running === 0 ? now - c.since : 0)),
            Math.round(c.remaining[1] - (c.running === 1 ? now - c.since : 0)),
          ],
          running: c.running,
        }
      : null,
    tags: s.tags.map(([k, v]) => [k, v]),
    flipped: s.flipped,
    ...(s.players ? { players: [s.players[0], s.players[1]] as [string, string] } : {}),
  };
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function loadNodes(tree: GameTree, path: Path, saved: unknown, depth = 0): Result<GameTree, string> {
  if (!Array.isArray(saved)) return err('moves are not a list');
  if (depth > 2000) return err('the game is too long');
  let t = tree;
  const pos = positionAt(tree, path);
  for (const n of saved) {
    if (!isObj(n) || typeof n.m !== 'string') return err('a move is not readable');
    const m = parseMove(pos, n.m);
    if (!m.ok) return err(`move ${path.length + 1} (${n.m}): ${m.error.message}`);
    const extra: NodeExtra = {};
    if (Array.isArray(n.clk) && n.clk.length === 2 && n.clk.every(isNum)) extra.clocks = [n.clk[0], n.clk[1]];
    if (isObj(n.eng)) extra.engine = pickNote(n.eng);
    if (typeof n.com === 'string') extra.comment = n.com;
    if (Array.isArray(n.nags) && n.nags.every(isNum)) extra.nags = n.nags;
    const added = addMove(t, path, m.value, extra);
    t = added.tree;
    if (n.c !== undefined) {
      const r = loadNodes(t, added.path, n.c, depth + 1);
      if (!r.ok) return r;
      t = r.value;
    }
  }
  return ok(t);
}

function pickNote(o: Record<string, unknown>): EngineNote {
  const n: EngineNote = {};
  for (const k of ['scoreCp', 'mate', 'depth', 'timeMs'] as const) if (isNum(o[k])) n[k] = o[k] as number;
  return n;
}

/** The saved game put into `s` (whose settings stay), or why it cannot be. */
export function restoreGame(s: PageState, raw: unknown, now: number): Result<PageState, string> {
  if (!isObj(raw) || raw.v !== 1) return err('not a saved game');
  const edition = raw.edition;
  if (typeof edition !== 'string' || !isEditionId(edition) || typeof raw.startKfen !== 'string')
    return err('no edition or start position');
  const t0 = newTree(edition, raw.startKfen);
  if (!t0.ok) return err(`bad start position: ${t0.error}`);
  const tree = loadNodes(t0.value, [], raw.moves);
  if (!tree.ok) return tree;
  const mode: Mode = raw.mode === 'humans' || raw.mode === 'analysis' ? raw.mode : 'engine';
  const path = Array.isArray(raw.path) && raw.path.every(isNum) && pathExists(tree.value, raw.path) ? raw.path : [];
  const e = raw.ending;
  const ending: Ending | null =
    isObj(e) &&
    typeof e.text === 'string' &&
    typeof e.termination === 'string' &&
    ['1-0', '0-1', '1/2-1/2', '*'].includes(e.result as string)
      ? { result: e.result as Ending['result'], text: e.text, termination: e.termination }
      : null;
  const pl = raw.players;
  const players: [string, string] | null =
    Array.isArray(pl) && pl.length === 2 && pl.every((x) => typeof x === 'string') ? [pl[0], pl[1]] : null;
  const tags = Array.isArray(raw.tags)
    ? raw.tags.filter(
        (t): t is [string, string] => Array.isArray(t) && t.length === 2 && t.every((x) => typeof x === 'string'),
      )
    : [];
  let next: PageState = {
    ...s,
    mode,
    tree: tree.value,
    path,
    humanSide: raw.humanSide === 1 ? 1 : 0,
    ending,
    clock: null,
    tags,
    players,
    flipped: raw.flipped === true,
    selected: -1,
    stackTop: false,
    cursor: -1,
    aim: null,
    ...freshView(),
  };
  const c = raw.clock;
  if (
    isObj(c) &&
    isNum(c.baseMs) &&
    isNum(c.incMs) &&
    Array.isArray(c.remaining) &&
    c.remaining.length === 2 &&
    c.remaining.every(isNum)
  ) {
    // In analysis the game's clocks are kept, standing still.
    const running =
      mode !== 'analysis' && !isOver(next) && path.length > 0 && (c.running === 0 || c.running === 1)
        ? endPosition(next).side
        : -1;
    next = {
      ...next,
      clock: restoreClock(newClock(c.baseMs, c.incMs), [c.remaining[0], c.remaining[1]], running, now),
    };
  }
  return ok(next);
}

/** Settings read back, each one checked (unknown or bad values keep their defaults). */
export function restoreSettings(raw: unknown): Settings {
  const s: Settings = { ...DEFAULT_SETTINGS };
  if (!isObj(raw)) return s;
  if (typeof raw.edition === 'string' && isEditionId(raw.edition)) s.edition = raw.edition;
  if (typeof raw.setup === 'string' && isSetupName(raw.setup)) s.setup = raw.setup;
  if (raw.side === '0' || raw.side === '1' || raw.side === 'random') s.side = raw.side;
  if (isNum(raw.level) && raw.level >= 1 && raw.level <= LEVEL_COUNT) s.level = Math.round(raw.level);
  if (typeof raw.tc === 'string' && /^(?:|\d+\+\d+)$/.test(raw.tc)) s.tc = raw.tc;
  if (isNum(raw.multipv) && raw.multipv >= 1 && raw.multipv <= 5) s.multipv = Math.round(raw.multipv);
  for (const k of ['showThinking', 'showLasers', 'shotPreview', 'confirmMoves', 'sound', 'showWin'] as const)
    if (typeof raw[k] === 'boolean') s[k] = raw[k] as boolean;
  if ((DANGER_VIEWS as readonly unknown[]).includes(raw.danger)) s.danger = raw.danger as DangerView;
  return s;
}
