/**
 * `npm ci` runs no dependency's install script unless package.json's allowScripts says so (npm 11),
 * and warns about every one it skipped that allowScripts does not name. Every dependency with an
 * install script (package-lock.json marks it `hasInstallScript`) is named there, so that a fresh
 * install prints no such warning; README says why each is allowed or not.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const json = (f: string): Record<string, unknown> =>
  JSON.parse(readFileSync(`${ROOT}/${f}`, 'utf8')) as Record<string, unknown>;

describe('install scripts', () => {
  it('package.json allows or denies the install script of every locked package that has one', () => {
    const lock = json('package-lock.json').packages as Record<string, { hasInstallScript?: boolean }>;
    const withScripts = Object.entries(lock)
      .filter(([p, v]) => p !== '' && v.hasInstallScript === true)
      .map(([p]) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const allow = (json('package.json').allowScripts ?? {}) as Record<string, boolean>;
    const covered = (name: string): boolean => Object.keys(allow).some((k) => k === name || k.startsWith(`${name}@`));
    expect(withScripts.filter((n) => !covered(n))).toEqual([]);
    const readme = readFileSync(`${ROOT}/README.md`, 'utf8');
    for (const name of withScripts)
      expect(readme, `README says why ${name}'s install script is allowed or not`).toContain(`\`${name}\``);
  });
});
