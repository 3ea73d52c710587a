/**
 * A game as a tree of moves: the main line is every node's first child, other children are
 * variations (analysis). Immutable: a change returns a new tree sharing the untouched nodes, and a
 * node is addressed by its path, the child indices from the start.
 */
import { parseKfen, parsePlayableKfen, parseMove, type EditionId, type Position } from '../../../core/index';
import { err, ok, type Result } from '../../../core/result';
import { playPly, type PlyInfo } from './move-effect';

/** What an engine said about a move it played, from the mover's point of view. */
export interface EngineNote {
  scoreCp?: number;
  mate?: number;
  depth?: number;
  timeMs?: number;
}

export interface MoveNode {
  readonly ply: PlyInfo;
  readonly children: readonly MoveNode[];
  /** Both clocks (ms left, [first, second]) right after the move, when the game had clocks. */
  readonly clocks?: readonly [number, number];
  readonly engine?: EngineNote;
  /** A comment from an imported record (kept on export). */
  readonly comment?: string;
  /** Numeric annotation glyphs from an imported record ($1 = !, $2 = ?, …). */
  readonly nags?: readonly number[];
}

/** What a move may carry besides the move itself. */
export type NodeExtra = { -readonly [K in 'clocks' | 'engine' | 'comment' | 'nags']?: MoveNode[K] };

export interface GameTree {
  readonly edition: EditionId;
  readonly startKfen: string;
  readonly children: readonly MoveNode[];
}

export type Path = readonly number[];

/**
 * A tree of no moves from `startKfen`: a position to play on, so both sides need their Pharaoh
 * (`parsePlayableKfen`: a board without one is no game, and the engine refuses it).
 */
export function newTree(edition: EditionId, startKfen: string): Result<GameTree, string> {
  const r = parsePlayableKfen(startKfen, edition);
  if (!r.ok) return err(r.error.message);
  return ok({ edition, startKfen, children: [] });
}

function rootPosition(tree: GameTree): Position {
  const r = parseKfen(tree.startKfen, tree.edition);
  if (!r.ok) throw new Error(`bad start KFEN: ${r.error.message}`);
  return r.value;
}

/** The nodes from the start to `path` (as far as it exists). */
function nodesAlong(tree: GameTree, path: Path): MoveNode[] {
  const out: MoveNode[] = [];
  let children = tree.children;
  for (const i of path) {
    const n = children[i];
    if (!n) break;
    out.push(n);
    children = n.children;
  }
  return out;
}

export function nodeAt(tree: GameTree, path: Path): MoveNode | null {
  if (path.length === 0) return null;
  const along = nodesAlong(tree, path);
  return along.length === path.length ? along[along.length - 1] : null;
}

export function childrenAt(tree: GameTree, path: Path): readonly MoveNode[] {
  return path.length === 0 ? tree.children : (nodeAt(tree, path)?.children ?? []);
}

export function pathExists(tree: GameTree, path: Path): boolean {
  return nodesAlong(tree, path).length === path.length;
}

/** The position after the moves of `path`. */
export function positionAt(tree: GameTree, path: Path): Position {
  const pos = rootPosition(tree);
  for (const n of nodesAlong(tree, path)) pos.make(n.ply.move);
  return pos;
}

/** The path on from `path` to the end of its line (first children). */
export function lineEnd(tree: GameTree, path: Path): Path {
  const out = [...path];
  let children = childrenAt(tree, path);
  while (children.length > 0) {
    out.push(0);
    children = children[0].children;
  }
  return out;
}

export const mainlineEnd = (tree: GameTree): Path => lineEnd(tree, []);
/** The path of the main line's first `n` moves. */
export const mainlinePath = (n: number): Path => new Array<number>(n).fill(0);
export const isMainline = (path: Path): boolean => path.every((i) => i === 0);
export const mainlineLength = (tree: GameTree): number => mainlineEnd(tree).length;
export const pathKey = (path: Path): string => path.join('.');
export const samePath = (a: Path, b: Path): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The main-line nodes. */
export function mainline(tree: GameTree): MoveNode[] {
  return nodesAlong(tree, mainlineEnd(tree));
}

/** The node at `path` replaced by `f(node)`; the nodes above it are copied. */
export function updateNode(tree: GameTree, path: Path, f: (n: MoveNode) => MoveNode): GameTree {
  if (path.length === 0) return tree;
  const rec = (children: readonly MoveNode[], depth: number): readonly MoveNode[] => {
    const i = path[depth];
    const n = children[i];
    if (!n) return children;
    const copy = children.slice();
    copy[i] = depth === path.length - 1 ? f(n) : { ...n, children: rec(n.children, depth + 1) };
    return copy;
  };
  return { ...tree, children: rec(tree.children, 0) };
}

/** The children at `path` replaced by `f(children)`. */
function updateChildren(tree: GameTree, path: Path, f: (c: readonly MoveNode[]) => readonly MoveNode[]): GameTree {
  if (path.length === 0) return { ...tree, children: f(tree.children) };
  return updateNode(tree, path, (n) => ({ ...n, children: f(n.children) }));
}

/**
 * Plays `move` (legal in the position at `path`) after `path`: an existing child with that move is
 * followed, otherwise the move is added as the last child (a new variation, or the main line's
 * continuation when there is none).
 */
export function addMove(
  tree: GameTree,
  path: Path,
  move: number,
  extra: NodeExtra = {},
): { tree: GameTree; path: Path } {
  const children = childrenAt(tree, path);
  const have = children.findIndex((c) => c.ply.move === move);
  if (have >= 0) {
    const p = [...path, have];
    const t = Object.keys(extra).length > 0 ? updateNode(tree, p, (n) => ({ ...n, ...extra })) : tree;
    return { tree: t, path: p };
  }
  const ply = playPly(positionAt(tree, path), move);
  const node: MoveNode = { ply, children: [], ...extra };
  return { tree: updateChildren(tree, path, (c) => [...c, node]), path: [...path, children.length] };
}

/** Plays move texts from `path` (an imported line); fails on the first illegal one. */
export function addMoves(
  tree: GameTree,
  path: Path,
  texts: readonly string[],
): Result<{ tree: GameTree; path: Path }, { index: number; message: string }> {
  let t = tree;
  let p = path;
  const pos = positionAt(tree, path);
  for (let i = 0; i < texts.length; i++) {
    if (pos.winner >= 0) return err({ index: i, message: 'the game is already over' });
    const m = parseMove(pos, texts[i]);
    if (!m.ok) return err({ index: i, message: m.error.message });
    pos.make(m.value);
    ({ tree: t, path: p } = addMove(t, p, m.value));
  }
  return ok({ tree: t, path: p });
}

/** The tree without the node at `path` and everything after it. */
export function deleteNode(tree: GameTree, path: Path): GameTree {
  if (path.length === 0) return { ...tree, children: [] };
  const parent = path.slice(0, -1);
  const i = path[path.length - 1];
  return updateChildren(tree, parent, (c) => c.filter((_, k) => k !== i));
}

/** The variation that `path` runs through made the main line from its branching point on. */
export function promote(tree: GameTree, path: Path): { tree: GameTree; path: Path } {
  let t = tree;
  const p = [...path];
  for (let d = 0; d < p.length; d++) {
    const i = p[d];
    if (i === 0) continue;
    t = updateChildren(t, p.slice(0, d), (c) => [c[i], ...c.filter((_, k) => k !== i)]);
    p[d] = 0;
  }
  return { tree: t, path: p };
}

/** The protocol's `position` command for the position at `path`. */
export function positionCommand(tree: GameTree, path: Path): string {
  const moves = nodesAlong(tree, path).map((n) => n.ply.text);
  return `position kfen ${tree.startKfen}${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
}
