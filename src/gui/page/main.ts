/**
 * The page served by `thoth gui`: its engine is the server's, over a WebSocket (the token comes
 * from the address, or from the cookie of an earlier visit when the address has none).
 */
import { PageController } from './controller';
import { EngineClient, WebSocketLink } from './engine/engine-client';

const token = new URLSearchParams(location.search).get('token');
const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const url = `${scheme}://${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
new PageController(new EngineClient(new WebSocketLink(url)));
