import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS, serverExecArgv } from '../../../infra/server-heap.js';

const root = join(import.meta.dirname, '..', '..', '..');
const scripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

describe('the serving processes V8 flags', () => {
  it('turn off the memory reducer', () => {
    expect(SERVER_V8_FLAGS).toEqual(['--no-memory-reducer']);
  });

  it("are added to a forked server's arguments once, after what the primary had", () => {
    expect(serverExecArgv(['--import', 'tsx'])).toEqual(['--import', 'tsx', '--no-memory-reducer']);
    expect(serverExecArgv(['--no-memory-reducer', '--import', 'tsx'])).toEqual([
      '--no-memory-reducer',
      '--import',
      'tsx',
    ]);
    expect(serverExecArgv([])).toEqual(['--no-memory-reducer']);
  });

  it('are on the command lines of npm start and npm run start:api, before the entry', () => {
    for (const [name, entry] of [
      ['start', 'infra/launcher.ts'],
      ['start:api', 'api/main.ts'],
    ]) {
      const words = scripts[name].split(/\s+/);
      const at = words.indexOf(entry);
      expect(at, name).toBeGreaterThan(0);
      for (const flag of SERVER_V8_FLAGS) {
        expect(words.indexOf(flag), `${name} ${flag}`).toBeGreaterThan(words.lastIndexOf('tsx'));
        expect(words.indexOf(flag), `${name} ${flag}`).toBeLessThan(at);
      }
    }
  });
});
