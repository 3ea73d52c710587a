/** Quoting the input in error lines (src/core/quote.ts): at most QUOTE_MAX characters, said once. */
import { describe, expect, it } from 'vitest';
import { QUOTE_MAX, clip, clipMessage, quote } from '../../src/core/quote';

const X = 'x'.repeat(20_000);
const HEAD = 'x'.repeat(QUOTE_MAX);

describe('quote and clipMessage', () => {
  it('clip and quote keep short text and cut long text once, with its length', () => {
    expect(clip('e4d5')).toBe('e4d5');
    expect(quote('e4d5')).toBe("'e4d5'");
    expect(clip(X)).toBe(`${HEAD}… (20000 characters)`);
    expect(quote(X)).toBe(`'${HEAD}… (20000 characters)'`);
  });

  it('clipMessage leaves a quote() alone: no second length, the closing quote kept', () => {
    expect(clipMessage(`go: unknown argument ${quote(X)}`)).toBe(`go: unknown argument '${HEAD}… (20000 characters)'`);
    expect(clipMessage(`Hash must be from 1 to 8192, not ${clip('9'.repeat(20_000))}`)).toBe(
      `Hash must be from 1 to 8192, not ${'9'.repeat(QUOTE_MAX)}… (20000 characters)`,
    );
  });

  it('clipMessage clips a long word quoted whole elsewhere, its quotes and punctuation outside', () => {
    expect(clipMessage(`move 1: '${X}' is not a move`)).toBe(`move 1: '${HEAD}… (20000 characters)' is not a move`);
    expect(clipMessage(`bad KFEN: "${X}": too long`)).toBe(`bad KFEN: "${HEAD}… (20000 characters)": too long`);
    expect(clipMessage(`at ${X}.`)).toBe(`at ${HEAD}… (20000 characters).`);
    expect(clipMessage(`a (${X})`)).toBe(`a (${HEAD}… (20000 characters))`);
    expect(clipMessage(`${X} ${X}`)).toBe(`${HEAD}… (20000 characters) ${HEAD}… (20000 characters)`);
  });

  it('a long word made to look clipped is clipped all the same', () => {
    const fake = `${X}… (5 characters)`;
    expect(clipMessage(`bad ${fake}`)).toBe(`bad ${HEAD}… (20001 characters) (5 characters)`);
  });
});
