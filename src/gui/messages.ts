/**
 * The messages between the page and the GUI server over the WebSocket, as JSON. Shared by the
 * server (Node) and the page (browser): types only.
 */

/** Page → server. */
export type ClientMessage =
  /** One protocol command for the engine; the server forwards only allowed commands. */
  | { type: 'cmd'; line: string }
  /** The engine stopped answering: end its process and start it again. */
  | { type: 'restart' };

/** The engine process as the server sees it. */
export type EngineState = 'starting' | 'ready' | 'failed' | 'exited';

/**
 * Full strength as the server set the engine up (the options it declares): `Threads` (every core)
 * and `Hash` in MB (sized to the machine's memory). Limited levels play on one thread.
 */
export interface FullStrength {
  threads: number;
  hashMb?: number;
}

/** Server → page. */
export type ServerMessage =
  /**
   * Sent on connection and whenever the engine's state changes. `handshake` is the engine's
   * answer to `uci` (the `id` and `option` lines and `uciok`), replayed to every page.
   */
  | {
      type: 'hello';
      state: EngineState;
      engine: string;
      handshake: string[];
      message?: string;
      /** Full strength as this page's engine has it now: its threads are its share. */
      strength?: FullStrength;
      /** The pages the server serves now (this one included), and the most it serves at once. */
      pages?: { open: number; most: number };
    }
  /** One line the engine wrote. */
  | { type: 'line'; line: string }
  /** A command the server did not forward, and why. */
  | { type: 'refused'; line: string; reason: string }
  /**
   * The server serves `most` pages at once (an engine each) and that many are connected: this one
   * gets no engine (the connection is closed).
   */
  | { type: 'full'; most: number };
