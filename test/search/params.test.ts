import { describe, expect, it } from 'vitest';
import { BENCH_POSITIONS, runBench } from '../../src/search/bench';
import { DEFAULT_FEATURES } from '../../src/search/search';
import { DEFAULT_PARAMS, PARAM_SPECS } from '../../src/search/params';

describe('search parameters', () => {
  it('are declared once each, with defaults inside their ranges', () => {
    const keys = PARAM_SPECS.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(DEFAULT_PARAMS).sort());
    expect(new Set(PARAM_SPECS.map((p) => p.name.toLowerCase())).size).toBe(keys.length);
    for (const p of PARAM_SPECS) {
      expect(DEFAULT_PARAMS[p.key]).toBeGreaterThanOrEqual(p.min);
      expect(DEFAULT_PARAMS[p.key]).toBeLessThanOrEqual(p.max);
      expect(p.cEnd).toBeGreaterThan(0);
    }
  });

  it('reach the search: each one changed changes the tree of a fixed-depth search', () => {
    // The tree of each position on its own (its node count): a value changes the tree when any
    // position's count differs, so the positions after the first that differs need no search.
    const positions = BENCH_POSITIONS.slice(8, 12);
    const nodes = (i: number, params = DEFAULT_PARAMS): number =>
      runBench(6, () => undefined, [positions[i]], DEFAULT_FEATURES, null, params).nodes;
    const base = positions.map((_, i) => nodes(i));
    expect(positions.map((_, i) => nodes(i, { ...DEFAULT_PARAMS }))).toEqual(base);
    for (const p of PARAM_SPECS) {
      const changed = [p.min, p.max].some((v) =>
        positions.some((_, i) => nodes(i, { ...DEFAULT_PARAMS, [p.key]: v }) !== base[i]),
      );
      expect(changed, p.name).toBe(true);
    }
  });
});
