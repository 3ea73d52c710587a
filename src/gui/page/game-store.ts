/**
 * The person's games kept in the browser: IndexedDB (through idb), one store keyed by the moves'
 * key (view/games-panel.ts, KeptGame), so a game kept twice is kept once. Where IndexedDB is
 * missing or refused (some private windows, file:// in some browsers), the shelf keeps the games
 * for the page's life only and says nothing.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { DatabaseExplorer, DatabaseMove, GameShelf, KeptGame } from './view/games-panel';

const DB_NAME = 'thoth';
const STORE = 'games';

/** The shelf of the person's games. */
export function gameShelf(): GameShelf {
  let db: Promise<IDBPDatabase | null> | undefined;
  const memory = new Map<string, KeptGame>();
  const opened = (): Promise<IDBPDatabase | null> =>
    (db ??= openDB(DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore(STORE, { keyPath: 'key' });
      },
    }).catch(() => null));
  return {
    async all() {
      const d = await opened();
      return d ? ((await d.getAll(STORE)) as KeptGame[]) : [...memory.values()];
    },
    async put(g) {
      const d = await opened();
      if (d) await d.put(STORE, g);
      else memory.set(g.key, g);
    },
    async remove(key) {
      const d = await opened();
      if (d) await d.delete(STORE, key);
      else memory.delete(key);
    },
  };
}

/**
 * Thoth's games for the explorer: the index the build put inside the page (`THOTH_EXPLORER=FILE
 * npm run build`, or `build:web`; docs/db.md, "The page's index"), when there is one. A page
 * without it shows the person's games alone.
 */
export function loadExplorerIndex(panel: { setIndex(json: unknown): void }): void {
  const text = document.getElementById('explorer-index')?.textContent;
  if (!text) return;
  try {
    panel.setIndex(JSON.parse(text));
  } catch {
    // a damaged index: the person's games alone
  }
}

/**
 * The game database of `thoth gui --db FILE` (src/gui/database-api.ts), when the server has one
 * (it answers a name then): the explorer asks it for each position shown. Only the page `thoth gui`
 * serves asks (main.ts); the static page has no server.
 */
export async function loadDatabase(panel: { setDatabase(d: DatabaseExplorer): void }): Promise<void> {
  const get = async (path: string): Promise<unknown> => {
    const r = await fetch(path, { cache: 'no-store' });
    const body = (await r.json()) as { error?: string };
    if (!r.ok) throw new Error(body.error ?? `${r.status}`);
    return body;
  };
  let info: { name: string; games: number };
  try {
    info = (await get('api/database')) as typeof info;
    if (typeof info.name !== 'string' || typeof info.games !== 'number') return; // started without --db
  } catch {
    return; // an older server
  }
  panel.setDatabase({
    ...info,
    async explore(variant, kfen) {
      const a = (await get(`api/explorer?variant=${encodeURIComponent(variant)}&kfen=${encodeURIComponent(kfen)}`)) as {
        moves: DatabaseMove[];
      };
      // JSON has no NaN: a move whose games are all unfinished comes as null
      return a.moves.map((m) => ({ ...m, score: typeof m.score === 'number' ? m.score : Number.NaN }));
    },
    async record(id) {
      return ((await get(`api/game?id=${id}`)) as { record: string }).record;
    },
  });
}
