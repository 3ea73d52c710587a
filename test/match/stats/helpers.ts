/** Helpers of the statistics tests: tolerances and a seeded random source. */
import { expect } from 'vitest';
import { mulberry32 } from '../../../src/core/zobrist';

/** |actual − expected| ≤ tol. */
export function near(actual: number, expected: number, tol: number): void {
  expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

/** Published values are given to 2 decimals: they must match when rounded. */
export function twoDecimals(actual: number, expected: number): void {
  near(actual, expected, 0.005 + 1e-9);
}

/** Deterministic PRNG (mulberry32) for the randomised tests. */
export function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => (next() >>> 0) / 4294967296;
}
