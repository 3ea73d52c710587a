/**
 * The `bestmove <move> [ponder <move>]` line as a client reads it: the match referee
 * (src/match/referee.ts), the GUI server's bridge (src/gui/bridge.ts) and the GUI page's engine
 * (src/gui/page/engine/engine-client.ts). Thoth writes it in src/protocol/lines.ts. Pure, so the
 * page bundles it.
 */

/**
 * Reads a `bestmove` line (tokens split by any white space): its move (`''` when it names none)
 * and the ponder move, if any; undefined for any other line.
 */
export function parseBestmove(line: string): { move: string; ponder?: string } | undefined {
  const t = line.trim().split(/\s+/);
  if (t[0] !== 'bestmove') return undefined;
  const pi = t.indexOf('ponder');
  return { move: t[1] ?? '', ponder: pi > 0 ? t[pi + 1] : undefined };
}
