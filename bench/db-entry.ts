/** What bench/db.mjs times of the game database, bundled by it with esbuild (better-sqlite3 stays external). */
export { openDatabase } from '../src/db/database';
export { explorerMoves, explorerRows, gamesAtKey, gamesMatching } from '../src/db/query';
export { exploreMoves } from '../src/analysis/explorer';
export { parsePattern } from '../src/analysis/pattern';
export { indexMoves } from '../src/analysis/explorer-index';
export { buildIndex } from '../src/db/static-index';
export { Position, parseKfen } from '../src/core/index';
