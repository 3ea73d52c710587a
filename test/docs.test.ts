/**
 * The documents, checked as a reader of a clone meets them: README is a door (short, with an index
 * of every file in docs/), every relative link in README, protocol.md and docs/ leads to a file that
 * exists, and nothing in the repository cites what a clone does not have: numbered work periods,
 * issue numbers, or the rulebook and conventions under their old names outside the repository
 * (docs/rules.md and docs/conventions.md are those now).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (rel: string): string => readFileSync(path.join(ROOT, rel), 'utf8');

/** Text files under `dir` (relative to the root), recursively. */
function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'fixtures-output') out.push(...textFiles(rel));
    } else if (/\.(ts|mts|mjs|cjs|js|md|sh|wat|json|html|css)$/.test(e.name)) out.push(rel);
  }
  return out;
}

const SCANNED = [
  'README.md',
  'protocol.md',
  ...['docs', 'src', 'bench', 'test', 'tools', 'scripts'].flatMap(textFiles),
];

/** What no file may say: a numbered work period, an issue number, a document outside the repository. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['a numbered work period', /\bsessions? \d/i],
  ['an issue number', /\bissues? #?\d/i],
  ['the rulebook outside the repository (cite docs/rules.md)', new RegExp(['khet', 'rules\\.md'].join('-'))],
  [
    'the conventions outside the repository (cite docs/conventions.md)',
    new RegExp(['engine', 'conventions\\.md'].join('-')),
  ],
];

/** Every `what` in `text`, as `file:line: text`. */
export function findReferences(file: string, text: string, re: RegExp): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (re.test(line)) out.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
  });
  return out;
}

describe('references a clone can follow', () => {
  it('the patterns find what they are meant to find (and nothing in plain prose)', () => {
    // the samples are put together here, so that this file does not hold what it forbids
    const w = (...parts: string[]): string => parts.join(' ');
    expect(findReferences('x', w('as measured in', 'Session', '14 (below)'), FORBIDDEN[0][1])).toHaveLength(1);
    expect(findReferences('x', w('sessions', '9–11: networks'), FORBIDDEN[0][1])).toHaveLength(1);
    expect(
      findReferences('x', w('the faults of', 'issue', '15\n') + w('issues', '#3 and #4'), FORBIDDEN[1][1]),
    ).toHaveLength(2);
    expect(
      findReferences('x', 'a session token; an issue with 3 parts; 2026-12-03 (5c5f614)', FORBIDDEN[0][1]),
    ).toHaveLength(0);
    expect(findReferences('x', 'an issue, 3 times', FORBIDDEN[1][1])).toHaveLength(0);
  });

  it.each(FORBIDDEN)('no file cites %s', (_what, re) => {
    expect(SCANNED.length).toBeGreaterThan(300);
    expect(SCANNED.flatMap((f) => findReferences(f, read(f), re))).toEqual([]);
  });
});

describe('README is a door', () => {
  const readme = read('README.md');

  it('is at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('indexes every document in docs/', () => {
    const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(docs).toContain('rules.md');
    expect(docs).toContain('conventions.md');
    for (const d of docs) expect(readme, `README's index lacks docs/${d}`).toContain(`](docs/${d})`);
  });

  it('every relative link in README, protocol.md and docs/ leads to a file', () => {
    const broken: string[] = [];
    for (const f of ['README.md', 'protocol.md', ...textFiles('docs').filter((x) => x.endsWith('.md'))]) {
      for (const m of read(f).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1])) continue; // http:, mailto:
        if (!existsSync(path.join(ROOT, path.dirname(f), m[1]))) broken.push(`${f}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/**
 * What the documents must not speak of: the circumstances the work was done in rather than the
 * project (paths outside the repository, the work session, a lent machine, the task, the people
 * at work). What was measured is said in the project's own terms: the build, the date, the load.
 */
const OUTSIDE: Array<[string, RegExp]> = [
  ['a path outside the repository', /(?<![\w.~-])\/(?:work|tmp)\//],
  ['the work session', /\bthe session\b|\bsession-(?:start|\d)/i],
  ['a lent machine', /\blent\b/i],
  ['the task', /\b(?:the|this) task\b/i],
  ['the people at work', /\bother (?:helpers|engineers)\b|\bengineers'|\bintegrator\b/i],
  ['a device machine', /\bdevice machine\b/i],
];

describe('the documents speak of the project', () => {
  const DOCS = [
    'README.md',
    'protocol.md',
    'bench/README.md',
    'CONTRIBUTING.md',
    ...readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it('the patterns find what they are meant to find', () => {
    const found = (text: string): string[] => OUTSIDE.filter(([, re]) => re.test(text)).map(([what]) => what);
    expect(found('a snapshot of /work/runs/x.pgn')).toEqual(['a path outside the repository']);
    expect(found('node /tmp/after/dist/cli.js')).toEqual(['a path outside the repository']);
    expect(found("stopped at the session's end")).toEqual(['the work session']);
    expect(found('the session-start build')).toEqual(['the work session']);
    expect(found('on a lent 16-core machine')).toEqual(['a lent machine']);
    expect(found('the task asked for 200')).toEqual(['the task']);
    expect(found("seven other engineers' jobs")).toEqual(['the people at work']);
    expect(found('while other helpers ran matches')).toEqual(['the people at work']);
    expect(found('the device machine could not')).toEqual(['a device machine']);
    // plain prose and the project's own words pass
    expect(found('the helper threads stop; an example session; sessionStorage; ../after/dist; dist/tmp/x')).toEqual([]);
  });

  it('no document names the circumstances of the work', () => {
    const hits: string[] = [];
    for (const f of DOCS.filter((d) => existsSync(path.join(ROOT, d)))) {
      read(f)
        .split('\n')
        .forEach((line, i) => {
          for (const [what, re] of OUTSIDE)
            if (re.test(line)) hits.push(`${f}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(hits).toEqual([]);
  });

  it("no comment of the code names them either ('the task' is a search thread's word there)", () => {
    const code = ['src', 'bench', 'tools', 'scripts'].flatMap(textFiles);
    expect(code.length).toBeGreaterThan(200);
    const hits = OUTSIDE.filter(([what]) => what !== 'the task').flatMap(([what, re]) =>
      code.flatMap((f) => findReferences(f, read(f), re).map((h) => `${h} (${what})`)),
    );
    expect(hits).toEqual([]);
  });
});
