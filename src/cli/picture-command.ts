/**
 * `thoth picture`: a picture of a position (SVG or PNG) with its beams, the danger map, arrows and
 * marked squares; or an animation (GIF or APNG) of a game from a record, or of the `--moves` from a
 * position, each shot drawn. The same drawing as the GUI's export buttons
 * (src/analysis/picture/), for docs and forums.
 */
import { deflateSync } from 'node:zlib';
import { SHAPE_COLORS, type NoteArrow, type ShapeColor, type SquareMark } from '../core/record';
import { RecordError, loadGame } from '../analysis/annotate-game';
import {
  type AnimationFormat,
  type BeamChoice,
  type StillFormat,
  animationFile,
  lineFrames,
  positionPicture,
  stillFile,
} from '../analysis/picture/picture';
import { isEditionId, toKfen, type EditionId, type Position } from '../core/index';
import { checkWritable, outputIsInput, readRecordFile } from '../process/files';
import {
  UsageError,
  fileErrorText,
  intOption,
  parseArgs,
  writeOutput,
  type CommandSpec,
  type ParsedArgs,
} from './args';
import { POSITION_OPTIONS, positionFromArgs } from './position-args';

/** The PNG encoder's compressor: Node's own zlib, at the level the page's gives. */
const nodeZlib = (raw: Uint8Array): Uint8Array => deflateSync(raw, { level: 6 });

export const PICTURE_SPEC: CommandSpec = {
  name: 'picture',
  summary:
    'A picture of a position with its beams, the danger map, arrows and marked squares (.svg or .png); or an ' +
    'animation of a game or a line, one frame a move with its shot drawn (.gif, or .apng / .png for an animated PNG).',
  options: [
    ...POSITION_OPTIONS,
    {
      name: 'out',
      value: 'FILE',
      help: 'the file to write: .svg or .png (a position), .gif, .apng or .png (an animation)',
    },
    {
      name: 'game',
      value: 'FILE',
      help: 'animate the main line of a game from a record file (its arrows and marked squares drawn)',
    },
    { name: 'index', value: 'N', help: 'which game of the file', default: '1' },
    { name: 'animate', help: 'animate the --moves from the position instead of drawing where they lead' },
    { name: 'beams', value: 'none|mover|both', help: "a position's lasers as they would fire now", default: 'both' },
    { name: 'danger', help: "the danger map: where the opponent's beam can reach after one move, and what it can hit" },
    { name: 'arrows', value: 'Gd2d4,Re1e2', help: "arrows, as lichess's [%cal]: a colour G R Y B and two squares" },
    { name: 'marks', value: 'Rd5,Ge1', help: "marked squares, as lichess's [%csl]: a colour and a square" },
    { name: 'flip', help: 'the second player at the bottom' },
    { name: 'size', value: 'PX', help: 'the side of a square in pixels', default: '64' },
    {
      name: 'delay',
      value: 'MS',
      help: 'how long each move of an animation shows (the last three times as long)',
      default: '1000',
    },
  ],
  notes: [
    'Examples: thoth picture --setup dynasty --danger --out dynasty.png',
    '          thoth picture --game games.pgn --index 2 --out game.gif',
    '          thoth picture --setup classic --moves j4i4 a4a3 c1+ --animate --out line.apng --delay 700',
  ],
};

const STILL: Record<string, StillFormat> = { svg: 'svg', png: 'png' };
const ANIMATED: Record<string, AnimationFormat> = { gif: 'gif', apng: 'apng', png: 'apng' };

/** `Gd2d4,Re1e2` as arrows (or the entry that is none). */
function parseShapes<T>(text: string, what: string, re: RegExp, make: (m: RegExpExecArray) => T): T[] {
  return text
    .split(',')
    .filter((e) => e.trim() !== '')
    .map((e) => {
      const m = re.exec(e.trim());
      if (!m || !(SHAPE_COLORS as readonly string[]).includes(m[1]))
        throw new UsageError(
          `--${what}: '${e.trim()}' is not a colour (G R Y B) and ${what === 'arrows' ? 'two squares' : 'a square'} (e.g. ${what === 'arrows' ? 'Gd2d4' : 'Rd5'})`,
        );
      return make(m);
    });
}

export async function pictureCommand(argv: string[], write: (s: string) => void): Promise<void> {
  const args = parseArgs(argv, PICTURE_SPEC);
  if (args.positional.length > 0)
    throw new UsageError(`unexpected argument '${args.positional[0]}' (thoth picture --help)`);
  const out = args.options.get('out')?.[0];
  if (out === undefined) throw new UsageError('give the file to write with --out (e.g. --out position.png)');
  const ext = (/\.([a-z]+)$/i.exec(out)?.[1] ?? '').toLowerCase();
  const animate = args.options.has('game') || args.options.has('animate');
  const squarePx = intOption(args, 'size', 64, 16, 256);
  const flip = args.options.has('flip');
  if (animate) {
    const format = ANIMATED[ext];
    if (format === undefined) throw new UsageError(`an animation is written as .gif, .apng or .png, not '${out}'`);
    for (const o of ['beams', 'danger', 'arrows', 'marks'])
      if (args.options.has(o)) throw new UsageError(`--${o} is for a picture of a position, not an animation`);
    const delayMs = intOption(args, 'delay', 1000, 20, 60_000);
    const { start, moves, notes, what } = animation(args);
    checkOut(out, args);
    const frames = lineFrames(start, moves, { squarePx, flip, delayMs, notes });
    const bytes = animationFile(frames, format, nodeZlib);
    writeOutput(out, bytes);
    write(
      `${what}: ${frames.length} frames, ${frames[0].picture.width}x${frames[0].picture.height}, written to ${out}`,
    );
    return;
  }
  const format = STILL[ext];
  if (format === undefined) throw new UsageError(`a picture of a position is written as .svg or .png, not '${out}'`);
  for (const o of ['delay', 'index'])
    if (args.options.has(o)) throw new UsageError(`--${o} goes with --game or --animate`);
  const beams = (args.options.get('beams')?.[0] ?? 'both') as BeamChoice;
  if (!['none', 'mover', 'both'].includes(beams))
    throw new UsageError(`--beams takes none, mover or both, not '${beams}'`);
  const arrows = parseShapes<NoteArrow>(
    args.options.get('arrows')?.[0] ?? '',
    'arrows',
    /^([A-Z])([a-j][1-8])([a-j][1-8])$/,
    (m) => ({
      color: m[1] as ShapeColor,
      from: m[2],
      to: m[3],
    }),
  );
  const squareMarks = parseShapes<SquareMark>(
    args.options.get('marks')?.[0] ?? '',
    'marks',
    /^([A-Z])([a-j][1-8])$/,
    (m) => ({
      color: m[1] as ShapeColor,
      square: m[2],
    }),
  );
  const pos = positionFromArgs(args, args.options.has('pharaoh-rotation'));
  checkOut(out, args);
  const pic = positionPicture(pos, { squarePx, flip, beams, danger: args.options.has('danger'), arrows, squareMarks });
  writeOutput(out, stillFile(pic, format, nodeZlib, `${pos.edition.name}: ${toKfen(pos)}`));
  write(`${pic.width}x${pic.height} picture of ${toKfen(pos)} written to ${out}`);
}

/** What an animation plays: a record's main line (with its notes), or the --moves from the position. */
function animation(args: ParsedArgs): {
  start: Position;
  moves: number[];
  notes: { arrows?: NoteArrow[]; squareMarks?: SquareMark[] }[];
  what: string;
} {
  const file = args.options.get('game')?.[0];
  if (file === undefined) {
    if (!args.options.has('moves'))
      throw new UsageError('--animate plays the --moves: give them (e.g. --moves j4i4 a4a3)');
    const end = positionFromArgs(args, args.options.has('pharaoh-rotation'));
    const moves = Array.from({ length: end.ply }, (_, i) => end.moveAt(i));
    const start = end.clone();
    while (start.ply > 0) start.unmake();
    return { start, moves, notes: [], what: `${moves.length} moves` };
  }
  for (const o of ['kfen', 'setup', 'moves'])
    if (args.options.has(o)) throw new UsageError(`--${o} does not go with --game (the record gives the position)`);
  const text = readRecordFile(file, 'game record');
  if (!text.ok) throw new UsageError(text.error);
  const v = args.options.get('variant')?.[0];
  if (v !== undefined && !isEditionId(v)) throw new UsageError(`unknown variant '${v}' (khet2, khet1 or deflexion)`);
  try {
    const game = loadGame(text.value, intOption(args, 'index', 1, 1, 1_000_000), v as EditionId | undefined);
    return { start: game.start, moves: game.moves, notes: game.record.moves, what: `${file}, game ${game.index}` };
  } catch (e) {
    if (e instanceof RecordError) throw new UsageError(`${file}: ${e.message}`);
    throw e;
  }
}

function checkOut(out: string, args: ParsedArgs): void {
  const game = args.options.get('game')?.[0];
  const clash = game === undefined ? undefined : outputIsInput(out, [game]);
  if (clash !== undefined) throw new UsageError(clash);
  try {
    checkWritable(out);
  } catch (e) {
    throw new UsageError(`cannot write '${out}': ${fileErrorText(e)}`);
  }
}
