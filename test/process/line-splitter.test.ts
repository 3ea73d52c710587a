/** LineSplitter: chunks in, whole lines out. */
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/process/line-splitter';

function split(chunks: string[], max?: number): string[] {
  const out: string[] = [];
  const s = new LineSplitter((l) => out.push(l), max);
  for (const c of chunks) s.push(c);
  return out;
}

describe('LineSplitter', () => {
  it('hands over whole lines, whatever the chunks', () => {
    expect(split(['uciok\nready', 'ok\n'])).toEqual(['uciok', 'readyok']);
    expect(split(['a\n\nb\n'])).toEqual(['a', '', 'b']);
    expect(split(['a', 'b', 'c'])).toEqual([]);
    const text = 'id name Thoth\noption name Hash type spin\nuciok\n';
    for (let cut = 0; cut <= text.length; cut++) {
      expect(split([text.slice(0, cut), text.slice(cut)])).toEqual([
        'id name Thoth',
        'option name Hash type spin',
        'uciok',
      ]);
    }
  });

  it('drops the \\r of \\r\\n, even when the chunk ends between them', () => {
    expect(split(['bestmove j4i4\r\ninfo x\r', '\n'])).toEqual(['bestmove j4i4', 'info x']);
    expect(split(['a\rb\n'])).toEqual(['a\rb']);
  });

  it('drops a runaway line to its end and goes on', () => {
    expect(split(['x'.repeat(11), 'yyy\nnext\n'], 10)).toEqual(['next']);
    expect(split(['x'.repeat(20) + '\nnext\n'], 10)).toEqual(['next']);
    expect(split(['x'.repeat(10) + '\n'], 10)).toEqual(['x'.repeat(10)]);
  });
});
