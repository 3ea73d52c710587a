/**
 * `thoth datagen --records FILE`: each game played is also appended to FILE as a game record
 * (src/core/record.ts), whole, before its positions go to the data file; `thoth db import` reads
 * it (docs/db.md). The record starts from the setup, its first moves the random opening plies
 * (the `Opening` tag says how many). A game written here whose positions then fail to be written
 * is played again by the next run and written again: the database keeps one game per move list.
 */
import { closeSync } from 'node:fs';
import { makeRecord, pgnDate, serializeRecord, type ResultToken } from '../core/record';
import { EDITION_IDS } from '../core/index';
import { appendGames, openForAppend } from './data-file';
import { LOSS, WIN } from './data';
import type { DatagenSettings, GameEnd, GameTask, PlayedGame } from './datagen';

const END_WORDS: Record<GameEnd, string> = {
  pharaoh: 'a Pharaoh was hit',
  repetition: 'a draw by repetition',
  'no-removal': 'a draw: no piece removed for too long',
  'no-moves': 'no legal move',
  'max-plies': 'a draw at the ply cap',
  adjudicated: 'adjudicated on the score',
  'no-opening': 'no opening found',
};

/** The record of a played game (undefined when it kept no moves). */
export function datagenRecord(
  g: PlayedGame,
  task: Pick<GameTask, 'setup' | 'seed'>,
  s: DatagenSettings,
  date = pgnDate(),
): string | undefined {
  if (g.line === undefined) return undefined;
  const result: ResultToken = g.result === WIN ? '1-0' : g.result === LOSS ? '0-1' : '1/2-1/2';
  const rec = makeRecord({
    event: 'Thoth self-play',
    date,
    round: String(g.game + 1),
    players: ['Thoth', 'Thoth'],
    result,
    variant: EDITION_IDS[g.edition],
    kfen: g.line.start,
    timeControl: s.depth ? `depth=${s.depth} nodes=${s.nodes}` : `nodes=${s.nodes}`,
    termination: g.end === 'adjudicated' ? 'adjudication' : 'normal',
    reason: END_WORDS[g.end],
    opening: `${task.setup} +${s.randomPlies} plies`,
    extra: [['Seed', String(task.seed)]],
    moves: g.line.moves.map((move) => ({ move })),
  });
  return serializeRecord(rec);
}

/** The record file, appended to game by game (a failed write leaves the file as it was). */
export class RecordsFile {
  private fd = -1;
  constructor(readonly path: string) {}

  append(text: string): void {
    if (this.fd < 0) this.fd = openForAppend(this.path);
    const bytes = Buffer.from(text, 'utf8');
    appendGames(this.fd, bytes, bytes.length, this.path);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}
