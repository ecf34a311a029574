import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configVariables } from '../../../infra/config.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('the README', () => {
  it('documents every configuration variable in its table', () => {
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)`\s*\|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...configVariables].sort());
  });

  it('names the two commands', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});
