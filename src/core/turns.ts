/** What a turn does to each piece: the table that make, unmake and the shot probes look turns up in. */
import { ANUBIS, PIECE_CODES, PYRAMID, SCARAB, SPHINX, kindOf } from './pieces';

/** ROTATED[code * 2 + 0] = the piece turned clockwise, [code * 2 + 1] counter-clockwise. */
export const ROTATED = new Uint8Array(PIECE_CODES * 2);
for (let code = 0; code < PIECE_CODES; code++) {
  const k = kindOf(code);
  const o = code & 3;
  let cw = code;
  let ccw = code;
  if (k === SCARAB) {
    cw = ccw = code ^ 1;
  } else if (k === SPHINX || k === PYRAMID || k === ANUBIS) {
    cw = (code & ~3) | ((o + 1) & 3);
    ccw = (code & ~3) | ((o + 3) & 3);
  }
  ROTATED[code * 2] = cw;
  ROTATED[code * 2 + 1] = ccw;
}
