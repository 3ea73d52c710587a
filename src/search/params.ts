/**
 * The search's numeric parameters: pruning and reduction margins, the aspiration window, the
 * history bonus. Each is declared once here with its range, exposed as an engine option of the
 * same name (protocol.md, "Search parameters") and tuned by `thoth tune` (SPSA, docs/tuning.md).
 * The defaults are the values the search had before they were named (bench signature unchanged).
 */

export interface SearchParams {
  /** The first aspiration window's half width (centi-pyramids), from depth 4. */
  aspirationDelta: number;
  /** Null-move reduction: base + depth / divisor plies. */
  nullMoveBase: number;
  nullMoveDivisor: number;
  /** Late-move pruning at depth ≤ lmpDepth: quiet moves past base + scale · depth² are not searched. */
  lmpDepth: number;
  lmpBase: number;
  lmpScale: number;
  /** Late-move reductions: one ply past lmrMoves moves, another past lmrMoves2. */
  lmrMoves: number;
  lmrMoves2: number;
  /** History: a cutoff's bonus scale · depth², at most historyMax. */
  historyScale: number;
  historyMax: number;
}

/** One tunable parameter: its option name, range and SPSA step at the end of a tuning run. */
export interface ParamSpec {
  key: keyof SearchParams;
  /** The engine option's name. */
  name: string;
  min: number;
  max: number;
  /** SPSA's perturbation at the last iteration (fishtest's c_end), in the parameter's units. */
  cEnd: number;
}

export const DEFAULT_PARAMS: Readonly<SearchParams> = Object.freeze({
  aspirationDelta: 40,
  nullMoveBase: 3,
  nullMoveDivisor: 4,
  lmpDepth: 3,
  lmpBase: 5,
  lmpScale: 3,
  lmrMoves: 3,
  lmrMoves2: 10,
  historyScale: 32,
  historyMax: 4096,
});

export const PARAM_SPECS: readonly ParamSpec[] = [
  { key: 'aspirationDelta', name: 'AspirationDelta', min: 5, max: 200, cEnd: 8 },
  { key: 'nullMoveBase', name: 'NullMoveBase', min: 1, max: 6, cEnd: 0.5 },
  { key: 'nullMoveDivisor', name: 'NullMoveDivisor', min: 2, max: 8, cEnd: 0.5 },
  { key: 'lmpDepth', name: 'LmpDepth', min: 1, max: 6, cEnd: 0.5 },
  { key: 'lmpBase', name: 'LmpBase', min: 1, max: 20, cEnd: 1 },
  { key: 'lmpScale', name: 'LmpScale', min: 1, max: 10, cEnd: 0.5 },
  { key: 'lmrMoves', name: 'LmrMoves', min: 1, max: 10, cEnd: 0.5 },
  { key: 'lmrMoves2', name: 'LmrMoves2', min: 4, max: 40, cEnd: 2 },
  { key: 'historyScale', name: 'HistoryScale', min: 4, max: 128, cEnd: 4 },
  { key: 'historyMax', name: 'HistoryMax', min: 256, max: 16384, cEnd: 512 },
];
