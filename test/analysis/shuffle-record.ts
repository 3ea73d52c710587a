/**
 * A record for the tests of repetitions (not a test file itself): the end of an Imhotep game at
 * Level 1 as a coach met it, rebuilt. Silver, five pieces up (Red kept its Sphinx, Pharaoh, two
 * Anubis, two Scarabs and two Pyramids), shuffles a Pyramid between j4 and j3 while Red shuffles
 * one between c3 and d4; Anubis on j2 and a7 stop both beams, so no move removes anything. 49.
 * j3j4 makes the position after 47. c4b3 again (its second occurrence), 51. j3j4 its third: the
 * referee's draw by threefold repetition (docs/rules.md §4).
 */

/** Silver to move at move 47. */
export const SHUFFLE_KFEN = 'xv3avk1s>2/a^9/3P<6/1Pv2P>s>3P</1P<Pv1S>4Pv/2p>3p>3/9Av/2S>A^K4X^ s 0 47';

/** `47. c4b3 c3d4 48. j4j3 d4c3 49. j3j4 c3d4 50. j4j3 d4c3 51. j3j4`. */
export const SHUFFLE_MOVES = ['c4b3', 'c3d4', 'j4j3', 'd4c3', 'j3j4', 'c3d4', 'j4j3', 'd4c3', 'j3j4'];

/** The game as a record: the person (Silver) against Thoth, drawn by the last move. */
export const SHUFFLE_PGN = [
  '[Event "Casual game"]',
  '[Variant "khet2"]',
  '[White "Human"]',
  '[Black "Thoth"]',
  '[SetUp "1"]',
  `[FEN "${SHUFFLE_KFEN}"]`,
  '[Result "1/2-1/2"]',
  '',
  '47. c4b3 c3d4 48. j4j3 d4c3 49. j3j4 c3d4 50. j4j3 d4c3 51. j3j4 1/2-1/2',
  '',
].join('\n');
