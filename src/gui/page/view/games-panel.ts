/**
 * The Games panel and the opening explorer (docs/gui.md, "Games and the explorer"). The panel
 * lists the person's own games, kept in the browser as they end (the shelf: IndexedDB, given by
 * the page's top), with a filter, Open and Delete. The explorer, under the analysis lines, shows
 * each move played from the shown position: in the person's games, and in Thoth's own games when
 * the page carries an explorer index (`thoth db index`, docs/db.md), with games, W/D/L and score
 * from the mover's side (src/analysis/explorer.ts), Thoth's evaluation where the move begins one
 * of the analysis lines, and, among the person's games, the move's best game with Open; a click
 * on a row plays the move on the board. The position search finds, among the games the filter
 * shows, those that reach the board's position (by its key: any move order) or a position that
 * matches a pattern (src/analysis/pattern.ts, the language of `thoth db search --pattern`), each
 * opened at the first ply that does. Served by `thoth gui --db FILE`, the explorer also shows the
 * moves of that database's games, asked of the server once per position.
 */
import { EDITIONS, SETUPS, parseKfen, parseMove, toKfen, type EditionId, type Position } from '../../../core/index';
import {
  parseRecord,
  replayRecord,
  recordPlayers,
  recordStart,
  recordVariant,
  type ResultToken,
} from '../../../core/record';
import { exploreMoves, type ExplorerMove, type ExplorerRow } from '../../../analysis/explorer';
import { indexMoves, isExplorerIndex, type ExplorerIndex } from '../../../analysis/explorer-index';
import { gameKey, keyOf } from '../../../analysis/game-keys';
import { firstPlyWhere, matchesPattern, parsePattern } from '../../../analysis/pattern';
import type { GameReview } from '../../../analysis/review';
import { plural } from '../../../core/plural';
import { elementsById } from './dom';
import { explorerDrawn } from './explorer-drawn';

/** A game kept in the browser. */
export interface KeptGame {
  /** The key of its moves (src/analysis/game-keys.ts): a game kept twice is kept once. */
  key: string;
  pgn: string;
  white: string;
  black: string;
  result: ResultToken;
  variant: string;
  setup: string;
  start: string;
  moves: string[];
  date: string;
  /** When it was kept (ms since 1970). */
  added: number;
  /** Thoth's review of it, when the person ran one (Review the game): per side, first player first. */
  review?: KeptReview;
}

/** What the Games panel keeps of a review. */
interface KeptReview {
  accuracy: [number | null, number | null];
  inaccuracies: [number, number];
  mistakes: [number, number];
  blunders: [number, number];
}

/** A review (src/analysis/review.ts) as the panel keeps it. */
function keptReview(r: GameReview): KeptReview {
  const [a, b] = r.sides;
  const acc = (x: number): number | null => (Number.isFinite(x) ? x : null);
  return {
    accuracy: [acc(a.accuracy), acc(b.accuracy)],
    inaccuracies: [a.inaccuracies, b.inaccuracies],
    mistakes: [a.mistakes, b.mistakes],
    blunders: [a.blunders, b.blunders],
  };
}

/** Each player's totals over the reviewed kept games: games, mean accuracy, marks; most games first. */
function playerTotals(
  games: readonly KeptGame[],
): { player: string; games: number; accuracy: number; inaccuracies: number; mistakes: number; blunders: number }[] {
  const by = new Map<string, { sum: number; n: number; games: number; i: number; m: number; b: number }>();
  for (const g of games) {
    if (!g.review) continue;
    [g.white, g.black].forEach((player, side) => {
      const t = by.get(player) ?? { sum: 0, n: 0, games: 0, i: 0, m: 0, b: 0 };
      const a = g.review!.accuracy[side];
      if (a !== null) {
        t.sum += a;
        t.n++;
      }
      t.games++;
      t.i += g.review!.inaccuracies[side];
      t.m += g.review!.mistakes[side];
      t.b += g.review!.blunders[side];
      by.set(player, t);
    });
  }
  return [...by]
    .map(([player, t]) => ({
      player,
      games: t.games,
      accuracy: t.n > 0 ? t.sum / t.n : Number.NaN,
      inaccuracies: t.i,
      mistakes: t.m,
      blunders: t.b,
    }))
    .sort((x, y) => y.games - x.games || (x.player < y.player ? -1 : 1));
}

/** Where the games are kept (IndexedDB in the page: game-store.ts). */
export interface GameShelf {
  all(): Promise<KeptGame[]>;
  put(g: KeptGame): Promise<void>;
  remove(key: string): Promise<void>;
}

/** A record as a game to keep, or undefined when it has no move or does not replay. */
function savedGameOf(pgn: string, added = Date.now()): KeptGame | undefined {
  const r = parseRecord(pgn);
  if (!r.ok || r.value.moves.length === 0) return undefined;
  const rec = r.value;
  if (!replayRecord(rec).ok) return undefined;
  const variant = recordVariant(rec);
  const start = recordStart(rec) ?? SETUPS[variant].classic;
  const moves = rec.moves.map((m) => m.move);
  const [white, black] = recordPlayers(rec);
  const board = (k: string): string => k.split(' ').slice(0, 2).join(' ');
  const setup =
    Object.entries(SETUPS[variant]).find(([, k]) => k !== undefined && board(k) === board(start))?.[0] ?? 'custom';
  return {
    key: gameKey(variant, start, moves),
    pgn,
    white,
    black,
    result: rec.result,
    variant,
    setup,
    start,
    moves,
    date: rec.tags.get('Date') ?? '',
    added,
  };
}

/** The games whose words hold every word of the filter (players, result, `draw`, edition, setup, date). */
function filterGames(games: readonly KeptGame[], filter: string): KeptGame[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return games.filter((g) => {
    const text =
      `${g.white} ${g.black} ${g.result} ${g.result === '1/2-1/2' ? 'draw' : ''} ${g.variant} ${EDITIONS[g.variant as 'khet2']?.name ?? ''} ${g.setup} ${g.date}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The explorer's rows from kept games: each game that reached the position and the move it played there. */
function rowsFromGames(games: readonly KeptGame[], pos: Position): ExplorerRow[] {
  const want = keyOf(pos);
  const rows: ExplorerRow[] = [];
  for (const g of games) {
    if (g.variant !== pos.edition.id) continue;
    const r = parseKfen(g.start, pos.edition.id);
    if (!r.ok) continue;
    const p = r.value;
    for (const move of g.moves) {
      if (keyOf(p) === want)
        rows.push({
          move,
          game: g.key,
          result: g.result,
          plies: g.moves.length,
          white: g.white,
          black: g.black,
          accuracyWhite: g.review?.accuracy[0],
          accuracyBlack: g.review?.accuracy[1],
        });
      const m = parseMove(p, move);
      if (!m.ok) break;
      p.make(m.value);
    }
  }
  return rows;
}

/**
 * The games with a position that passes `test` (only the games of `edition`, when given), each
 * with the first ply that does, in the order given.
 */
function gamesWhere(
  games: readonly KeptGame[],
  test: (pos: Position) => boolean,
  edition?: EditionId,
): { game: KeptGame; ply: number }[] {
  const found: { game: KeptGame; ply: number }[] = [];
  for (const g of games) {
    if (edition !== undefined && g.variant !== edition) continue;
    const r = parseKfen(g.start, g.variant as EditionId);
    if (!r.ok) continue;
    const play = (p: Position, k: number): boolean => {
      const m = parseMove(p, g.moves[k]);
      if (m.ok) p.make(m.value);
      return m.ok;
    };
    const ply = firstPlyWhere(r.value, g.moves.length, play, test);
    if (ply >= 0) found.push({ game: g, ply });
  }
  return found;
}

/** The explorer lists the most played moves, this many. */
const EXPLORER_ROWS = 12;

const IDS = [
  'card-games',
  'gm-count',
  'gm-filter',
  'gm-list',
  'gm-msg',
  'gm-players',
  'gm-search',
  'gm-find',
  'gm-here',
  'gm-found',
  'gm-search-msg',
  'explorer',
] as const;

/** A move of the explorer, as the database's answer brings it. */
export type DatabaseMove = ExplorerMove;

/** The game database of `thoth gui --db FILE`, as the page asks it (game-store.ts, loadDatabase). */
export interface DatabaseExplorer {
  name: string;
  games: number;
  explore(variant: EditionId, kfen: string): Promise<ExplorerMove[]>;
  /** A stored game's record, by its id in the database. */
  record(id: number): Promise<string>;
}

/** The database's answers kept, so that a position shown again is not asked again: this many. */
const DATABASE_ANSWERS = 200;

interface GamesPanelHooks {
  /** Opens a kept game on the board, at `ply` (from its start) when given, else at its end. */
  open(pgn: string, ply?: number): void;
  /** The position on the board. */
  position(): Position;
  /** Plays a move of the explorer on the board. */
  play(move: string): void;
}

export class GamesPanel {
  private readonly e: Record<(typeof IDS)[number], HTMLElement>;
  private games: KeptGame[] = [];
  private index: ExplorerIndex | null = null;
  private database: DatabaseExplorer | null = null;
  /** The database's answers by position (edition and KFEN): the moves, or the words of a failure. */
  private readonly answers = new Map<string, ExplorerMove[] | string>();
  private asking: string | null = null;
  /** What the explorer's rows show now (renderExplorer): the same again redraws only their Eval cells. */
  private drawn = '';
  /** The last answer from the person's games, for its position and list of games. */
  private kept: { at: string; games: KeptGame[]; moves: ExplorerMove[] } | null = null;
  /** What the explorer shows (renderExplorer's arguments): drawn again when the kept games change. */
  private shown: { pos: Position | null; evals: ReadonlyMap<string, string> } = { pos: null, evals: new Map() };

  constructor(
    doc: Document,
    private readonly shelf: GameShelf,
    private readonly hooks: GamesPanelHooks,
  ) {
    this.e = elementsById(doc, IDS) as Record<(typeof IDS)[number], HTMLElement>;
    this.e['gm-filter'].addEventListener('input', () => this.renderList());
    this.e['gm-find'].addEventListener('click', () => this.findPattern());
    this.e['gm-search'].addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).key === 'Enter') this.findPattern();
    });
    this.e['gm-here'].addEventListener('click', () => this.findPosition());
    void this.refresh();
  }

  /** The games shown by the filter that reach the board's position, by any move order. */
  private findPosition(): void {
    const pos = this.hooks.position();
    const want = keyOf(pos);
    const found = gamesWhere(this.shownGames(), (p) => keyOf(p) === want, pos.edition.id);
    this.renderFound(
      found,
      `${plural(found.length, 'game')} ${found.length === 1 ? 'reaches' : 'reach'} the board's position`,
    );
  }

  /** The games shown by the filter with a position that matches the pattern typed. */
  private findPattern(): void {
    const text = (this.e['gm-search'] as HTMLInputElement).value.trim();
    if (text === '') return this.renderFound([], 'Type a pattern, such as: Red Pharaoh on e8 with no Anubis beside it');
    const p = parsePattern(text);
    if (!p.ok) return this.renderFound([], `Pattern: ${p.error}`);
    const found = gamesWhere(this.shownGames(), (pos) => matchesPattern(p.value, pos));
    this.renderFound(found, `${plural(found.length, 'game')} ${found.length === 1 ? 'matches' : 'match'} "${text}"`);
  }

  private shownGames(): KeptGame[] {
    return filterGames(this.games, (this.e['gm-filter'] as HTMLInputElement).value);
  }

  /** The games found, each with the ply found and Open (the game on the board at that ply). */
  private renderFound(found: readonly { game: KeptGame; ply: number }[], words: string): void {
    this.e['gm-search-msg'].textContent = words;
    const list = this.e['gm-found'];
    list.replaceChildren();
    const doc = list.ownerDocument;
    for (const { game: g, ply } of found) {
      const li = doc.createElement('li');
      li.dataset.key = g.key;
      li.dataset.ply = String(ply);
      const what = doc.createElement('span');
      what.className = 'gm-what';
      what.textContent = `${g.white} – ${g.black}  ${g.result}, ${g.moves.length} plies: at ply ${ply}`;
      const open = doc.createElement('button');
      open.textContent = 'Open';
      open.className = 'gm-open-at';
      open.title = `The game on the board at ply ${ply}`;
      open.addEventListener('click', () => this.hooks.open(g.pgn, ply));
      li.append(what, open);
      list.append(li);
    }
  }

  /**
   * The explorer's moves in the person's games: replayed once per position and list of games, not
   * at every drawing of the page (an analysis draws it many times a second).
   */
  private keptMoves(pos: Position, at: string): ExplorerMove[] {
    const c = this.kept;
    if (c !== null && c.at === at && c.games === this.games) return c.moves;
    const moves = exploreMoves(rowsFromGames(this.games, pos), pos.side as 0 | 1);
    this.kept = { at, games: this.games, moves };
    return moves;
  }

  /** The server's game database, once the page has found it. */
  setDatabase(d: DatabaseExplorer): void {
    this.database = d;
    this.renderExplorer(this.shown.pos, this.shown.evals);
  }

  /**
   * The database's moves from the position, when known; else asks for them (once at a time: the
   * newest position waits for the answer before it) and draws the explorer again when they come,
   * if the position is still shown.
   */
  private databaseMoves(pos: Position, kfen: string, at: string): ExplorerMove[] | string | undefined {
    const d = this.database;
    if (d === null) return undefined;
    const had = this.answers.get(at);
    if (had !== undefined) return had;
    if (this.asking === null) {
      this.asking = at;
      d.explore(pos.edition.id, kfen).then(
        (moves) => this.answered(at, moves),
        (e: Error) => this.answered(at, `the database did not answer: ${e.message}`),
      );
    }
    return undefined;
  }

  private answered(at: string, a: ExplorerMove[] | string): void {
    this.asking = null;
    if (this.answers.size >= DATABASE_ANSWERS) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(at, a);
    // drawn again: with this answer if the position is still shown, else asking for the one shown now
    this.renderExplorer(this.shown.pos, this.shown.evals);
  }

  /** Thoth's games' index, once the page has fetched it (anything else is left alone). */
  setIndex(json: unknown): void {
    if (isExplorerIndex(json)) this.index = json;
  }

  /** Keeps a game (a record), with Thoth's review of it when there is one; a game already kept is kept once. */
  async keep(pgn: string, review?: GameReview): Promise<void> {
    const g = savedGameOf(pgn);
    if (g === undefined) return;
    const had = this.games.find((x) => x.key === g.key);
    if (had) g.added = had.added;
    if (review) g.review = keptReview(review);
    else if (had?.review) g.review = had.review;
    try {
      await this.shelf.put(g);
      await this.refresh();
    } catch (e) {
      this.message(`The game could not be kept: ${(e as Error).message}`);
    }
  }

  /**
   * A kept game's record written again (its notes changed: comments, marks, drawings, variations);
   * a game not kept is left alone. True when one was kept.
   */
  async rewrite(pgn: string): Promise<boolean> {
    const g = savedGameOf(pgn);
    if (g === undefined || !this.games.some((x) => x.key === g.key)) return false;
    await this.keep(pgn);
    return true;
  }

  async refresh(): Promise<void> {
    try {
      this.games = (await this.shelf.all()).sort((a, b) => b.added - a.added);
    } catch (e) {
      this.games = [];
      this.message(`Kept games cannot be read here: ${(e as Error).message}`);
    }
    this.renderList();
    // a game kept after the page was drawn (the store answers later) counts in the explorer at once
    this.renderExplorer(this.shown.pos, this.shown.evals);
  }

  private message(text: string): void {
    this.e['gm-msg'].textContent = text;
  }

  private renderList(): void {
    const shown = filterGames(this.games, (this.e['gm-filter'] as HTMLInputElement).value);
    this.e['gm-count'].textContent = this.games.length > 0 ? `(${shown.length} of ${this.games.length})` : '';
    const list = this.e['gm-list'];
    list.replaceChildren();
    const doc = list.ownerDocument;
    for (const g of shown) {
      const li = doc.createElement('li');
      li.dataset.key = g.key;
      const what = doc.createElement('span');
      what.className = 'gm-what';
      const ed = EDITIONS[g.variant as 'khet2']?.name ?? g.variant;
      const acc = g.review?.accuracy.map((a) => (a === null ? '–' : `${a.toFixed(0)}%`)).join(' / ');
      what.textContent = `${g.white} – ${g.black}  ${g.result}  ${ed} ${g.setup}, ${g.moves.length} plies${g.date ? `, ${g.date}` : ''}${acc ? `, accuracy ${acc}` : ''}`;
      const open = doc.createElement('button');
      open.textContent = 'Open';
      open.className = 'gm-open';
      open.addEventListener('click', () => this.hooks.open(g.pgn));
      const del = doc.createElement('button');
      del.textContent = 'Delete';
      del.className = 'gm-delete';
      del.addEventListener('click', () => {
        void this.shelf
          .remove(g.key)
          .then(() => this.refresh())
          .catch((e: Error) => this.message(`Not deleted: ${e.message}`));
      });
      li.append(what, open, del);
      list.append(li);
    }
    this.renderPlayers(shown);
    if (this.games.length === 0) this.message('No game kept yet: your games are kept here as they end.');
    else this.message('');
  }

  /** Each player's accuracy and marks over the reviewed games shown. */
  private renderPlayers(games: readonly KeptGame[]): void {
    const box = this.e['gm-players'];
    box.replaceChildren();
    const doc = box.ownerDocument;
    for (const t of playerTotals(games)) {
      const li = doc.createElement('li');
      li.textContent = `${t.player}: ${plural(t.games, 'reviewed game')}, accuracy ${Number.isNaN(t.accuracy) ? '–' : `${t.accuracy.toFixed(1)}%`}, ${t.inaccuracies} ?!, ${t.mistakes} ?, ${t.blunders} ??`;
      box.append(li);
    }
  }

  /** A move's best game among the person's games (the index keeps none): its result and length, and Open. */
  private bestGameCell(td: HTMLElement, m: ExplorerMove, database: DatabaseExplorer | null): void {
    td.className = 'ex-best';
    const best = m.best;
    if (database !== null && best !== undefined && typeof best.game === 'number') {
      const id = best.game;
      td.textContent = `${best.result}, ${best.plies} plies${best.accuracy === undefined ? '' : `, ${Math.round(best.accuracy)}%`} `;
      td.title = `${best.white ?? '?'} – ${best.black ?? '?'}, game ${id} of ${database.name}: the best result for the mover, then the most accurate, then the shortest`;
      const open = td.ownerDocument.createElement('button');
      open.textContent = 'Open';
      open.className = 'ex-open';
      open.addEventListener('click', (e) => {
        e.stopPropagation();
        database.record(id).then(
          (pgn) => this.hooks.open(pgn),
          (err: Error) => this.message(`Game ${id} could not be opened: ${err.message}`),
        );
      });
      td.append(open);
      return;
    }
    const kept = best === undefined ? undefined : this.games.find((g) => g.key === best.game);
    if (kept === undefined || best === undefined) {
      td.textContent = '–';
      return;
    }
    td.textContent = `${best.result}, ${best.plies} plies${best.accuracy === undefined ? '' : `, ${Math.round(best.accuracy)}%`} `;
    td.title = `${kept.white} – ${kept.black}${kept.date ? `, ${kept.date}` : ''}: the best result for the mover, then the most accurate, then the shortest`;
    const open = td.ownerDocument.createElement('button');
    open.textContent = 'Open';
    open.className = 'ex-open';
    open.addEventListener('click', (e) => {
      e.stopPropagation();
      this.hooks.open(kept.pgn);
    });
    td.append(open);
  }

  /**
   * The explorer for the shown position (null: hidden, outside Analysis); `evals`: Thoth's
   * evaluation of the moves that begin an analysis line, as the lines write it.
   */
  renderExplorer(pos: Position | null, evals: ReadonlyMap<string, string> = new Map()): void {
    this.shown = { pos, evals };
    const box = this.e.explorer;
    if (pos === null) {
      this.drawn = '';
      box.replaceChildren();
      return;
    }
    const doc = box.ownerDocument;
    // the position as the answers kept are keyed (its edition and KFEN), made once a drawing
    const kfen = toKfen(pos);
    const at = `${pos.edition.id} ${kfen}`;
    const sections: [string, ExplorerMove[] | string, 'kept' | 'index' | 'database'][] = [
      ['Your games', this.keptMoves(pos, at), 'kept'],
    ];
    if (this.index)
      sections.push([`Thoth's games (${this.index.games.toLocaleString('en')})`, indexMoves(this.index, pos), 'index']);
    const d = this.database;
    if (d !== null)
      sections.push([
        `${d.name} (${d.games.toLocaleString('en')})`,
        this.databaseMoves(pos, kfen, at) ?? 'asking the database…',
        'database',
      ]);
    // The page draws itself at every line of an analysis: the rows are built again only when what
    // they show changed (a row replaced under the pointer loses the click that was on it), and
    // otherwise only their Eval cells follow the lines.
    const drawn = explorerDrawn(at, sections, EXPLORER_ROWS);
    if (drawn === this.drawn) {
      for (const tr of Array.from(box.querySelectorAll('tr.ex-move')) as HTMLElement[]) {
        const cell = tr.querySelector('.ex-eval') as HTMLElement | null;
        const move = tr.dataset.move ?? '';
        if (cell === null) continue;
        cell.textContent = evals.get(move) ?? '–';
        cell.title = evals.has(move) ? '' : 'not the first move of an analysis line';
      }
      return;
    }
    this.drawn = drawn;
    box.replaceChildren();
    for (const [title, moves, from] of sections) {
      const h = doc.createElement('h3');
      h.dataset.from = from;
      h.textContent = `${title}: ${
        typeof moves === 'string'
          ? moves
          : moves.length === 0
            ? 'no game from here'
            : plural(
                moves.reduce((a, m) => a + m.games, 0),
                'game',
              )
      }`;
      box.append(h);
      if (typeof moves === 'string' || moves.length === 0) continue;
      const table = doc.createElement('table');
      table.dataset.from = from;
      table.innerHTML =
        '<thead><tr><th>Move</th><th>Games</th><th title="win / draw / loss">W/D/L</th><th>Score</th><th>Eval</th><th>Best game</th></tr></thead>';
      const body = doc.createElement('tbody');
      for (const m of moves.slice(0, EXPLORER_ROWS))
        body.append(this.explorerRow(m, evals, from === 'database' ? d : null));
      table.append(body);
      box.append(table);
      if (moves.length > EXPLORER_ROWS) {
        const more = doc.createElement('p');
        more.className = 'muted';
        more.textContent = `and ${plural(moves.length - EXPLORER_ROWS, 'move')} played less`;
        box.append(more);
      }
    }
  }

  /** One move's row of the explorer: a click plays the move. */
  private explorerRow(
    m: ExplorerMove,
    evals: ReadonlyMap<string, string>,
    database: DatabaseExplorer | null,
  ): HTMLElement {
    const doc = this.e.explorer.ownerDocument;
    const tr = doc.createElement('tr');
    tr.className = 'ex-move';
    tr.dataset.move = m.move;
    tr.title = `Play ${m.move}`;
    const pct = (n: number): number => Math.round((100 * n) / Math.max(1, m.games));
    const cells = [
      m.move,
      String(m.games),
      '',
      Number.isNaN(m.score) ? '–' : `${Math.round(100 * m.score)}%`,
      evals.get(m.move) ?? '–',
      '',
    ];
    for (const c of cells) {
      const td = doc.createElement('td');
      td.textContent = c;
      tr.append(td);
    }
    tr.children[4].className = 'ex-eval';
    if (!evals.has(m.move)) (tr.children[4] as HTMLElement).title = 'not the first move of an analysis line';
    this.bestGameCell(tr.children[5] as HTMLElement, m, database);
    const bar = doc.createElement('span');
    bar.className = 'ex-bar';
    bar.title = `${pct(m.wins)}% won, ${pct(m.draws)}% drawn, ${pct(m.losses)}% lost by the mover`;
    for (const n of [m.wins, m.draws, m.losses]) {
      const part = doc.createElement('span');
      part.style.width = `${pct(n)}%`;
      bar.append(part);
    }
    tr.children[2].append(bar);
    tr.addEventListener('click', () => this.hooks.play(m.move));
    return tr;
  }
}
