/**
 * The page served by `thoth gui`: its engine is the server's, over a WebSocket (the token comes
 * from the address, or from the cookie of an earlier visit when the address has none), and so is
 * the game database its explorer may ask (src/gui/database-api.ts).
 */
import { PageController } from './controller';
import { EngineClient, WebSocketLink } from './engine/engine-client';
import { loadDatabase } from './game-store';

const token = new URLSearchParams(location.search).get('token');
const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const url = `${scheme}://${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
const page = new PageController(new EngineClient(new WebSocketLink(url)));
// the server's game database, when it was started with one (thoth gui --db FILE)
void loadDatabase(page.games);
