/**
 * The game database behind `thoth gui --db FILE` (docs/gui.md, "Games and the explorer"): three
 * read-only answers in JSON, under the page's token and Host/Origin checks like every request.
 *
 *   GET /api/database                       → { name, games }        (name null without --db)
 *   GET /api/explorer?variant=V&kfen=K      → { games, moves, ms }   (the explorer from that position)
 *   GET /api/game?id=N                      → { id, record }         (a game's record, to open it)
 *
 * The server knows no SQL: the command hands it a {@link GameDatabase} (src/cli/gui.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExplorerMove } from '../analysis/explorer';

/** What the page may ask of a game database. */
export interface GameDatabase {
  /** The file's name (not its path) and how many games it holds. */
  info(): { name: string; games: number };
  /** Each move played from the position (`kfen` of edition `variant`), or why it cannot be asked. */
  explore(variant: string, kfen: string): { ok: true; moves: ExplorerMove[] } | { ok: false; error: string };
  /** A stored game's record, undefined for none. */
  record(id: number): string | undefined;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

/** Answers a request under /api/ (its checks done by the caller). */
export function answerDatabase(db: GameDatabase | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET') return json(res, 405, { error: 'GET only' });
  const url = new URL(req.url ?? '/', 'http://x');
  // The page asks this first, and a server without a database says so plainly (not a 404, which
  // a browser reports as a fault of the page).
  if (db === undefined && url.pathname === '/api/database') return json(res, 200, { name: null, games: 0 });
  if (db === undefined) return json(res, 404, { error: 'no game database: thoth gui --db FILE serves one' });
  try {
    switch (url.pathname) {
      case '/api/database':
        return json(res, 200, db.info());
      case '/api/explorer': {
        const variant = url.searchParams.get('variant') ?? '';
        const kfen = url.searchParams.get('kfen') ?? '';
        const t0 = performance.now();
        const r = db.explore(variant, kfen);
        if (!r.ok) return json(res, 400, { error: r.error });
        // a move no game finished has no score: null in JSON, NaN again on the page
        return json(res, 200, { games: db.info().games, moves: r.moves, ms: performance.now() - t0 });
      }
      case '/api/game': {
        const id = Number(url.searchParams.get('id'));
        const record = Number.isSafeInteger(id) && id > 0 ? db.record(id) : undefined;
        if (record === undefined) return json(res, 404, { error: `no game ${url.searchParams.get('id') ?? ''}` });
        return json(res, 200, { id, record });
      }
      default:
        return json(res, 404, { error: 'no such endpoint' });
    }
  } catch (e) {
    return json(res, 500, { error: e instanceof Error ? e.message : String(e) });
  }
}
