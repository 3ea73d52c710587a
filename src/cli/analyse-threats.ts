/**
 * `thoth analyse --threats`: the danger map of a position in words and as a diagram, or as JSON
 * (src/analysis/threat-words.ts over src/core/threats.ts). No search.
 */
import { gameStatus, squareName, toKfen } from '../core/index';
import { renderBoard } from '../analysis/diagram';
import { targetWords, threatLines, threatWords } from '../analysis/threat-words';
import { jsonLine } from '../match/results/summary';
import { UsageError, type ParsedArgs } from './args';
import { positionFromArgs } from './position-args';

/** The danger map of both beams: what the opponent could hit, then what the side to move can hit. */
export function threatsCommand(
  args: ParsedArgs,
  pharaohRotation: boolean,
  write: (s: string) => void,
  json: boolean,
): void {
  for (const o of ['game', 'depth', 'time', 'multipv', 'hash', 'threshold', 'index', 'round', 'out', 'graph'])
    if (args.options.has(o)) throw new UsageError(`--${o} does not go with --threats (the danger map needs no search)`);
  const pos = positionFromArgs(args, pharaohRotation);
  const ed = pos.edition;
  const status = gameStatus(pos, { noRemovalLimit: 0 });
  const maps = status.result === 'win' ? [] : [threatWords(pos, pos.side ^ 1), threatWords(pos, pos.side)];
  if (json) {
    write(
      jsonLine({
        variant: ed.id,
        kfen: toKfen(pos),
        sideToMove: ed.colorNames[pos.side],
        status: status.result,
        beams: maps.map((t) => ({
          attacker: ed.colorNames[t.attacker],
          reach: t.reach.map(squareName),
          shots: t.shots.map((s) => ({
            moves: s.standing ? null : s.moves.map((m) => m.text),
            count: s.count,
            standing: s.standing,
            path: s.path.map(squareName),
            hit: s.hit >= 0 ? squareName(s.hit) : null,
            target: s.hit >= 0 ? targetWords(pos, t.attacker, s.hit, s.hitPiece) : null,
            winning: s.winning,
            sentence: `the beam ${s.sentence}`,
          })),
        })),
      }),
    );
    return;
  }
  if (maps.length === 0) {
    for (const l of renderBoard(pos)) write(l);
    write('');
    write(`The game is over: ${status.text}.`);
    return;
  }
  const [danger, mine] = maps;
  const reached = (sq: number): boolean => ((danger.map.reach[sq >> 5] >>> (sq & 31)) & 1) === 1;
  const hit = (sq: number): boolean => ((danger.map.hits[sq >> 5] >>> (sq & 31)) & 1) === 1;
  for (const l of renderBoard(pos, (sq) => (hit(sq) ? '!' : reached(sq) ? '*' : ''))) write(l);
  write(`* a square ${ed.colorNames[danger.attacker]}'s beam can reach after one move, ! a piece it can remove there.`);
  write('');
  for (const l of threatLines(pos, danger)) write(l);
  write('');
  for (const l of threatLines(pos, mine)) write(l);
}
