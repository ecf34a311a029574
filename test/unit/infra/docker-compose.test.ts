import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configVariables, loadConfig } from '../../../infra/config.js';

const compose = parse(readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8'), {
  merge: true,
});

describe('docker-compose.yml', () => {
  it('defines the development stack the README promises', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['api', 'minio', 'postgres', 'temporal', 'temporal-ui', 'worker'].sort(),
    );
  });

  it('passes the app services only variables our configuration knows, with values it accepts', () => {
    for (const name of ['api', 'worker']) {
      const env = Object.fromEntries(
        Object.entries(compose.services[name].environment as Record<string, string>).map(([k, v]) => [
          k,
          String(v).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'),
        ]),
      );
      for (const key of Object.keys(env)) expect(configVariables).toContain(key);
      expect(loadConfig(env).databaseUrl).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    }
  });

  it('keeps the worker scalable: no fixed container name or published port', () => {
    expect(compose.services.worker.container_name).toBeUndefined();
    expect(compose.services.worker.ports).toBeUndefined();
  });

  it('is accepted by the docker compose client when one is installed', () => {
    const cwd = new URL('../../..', import.meta.url).pathname;
    const clients: string[][] = [['docker', 'compose'], ['docker-compose']].filter(
      ([cmd, ...sub]) => spawnSync(cmd!, [...sub, 'version'], { encoding: 'utf8' }).status === 0,
    );
    for (const [cmd, ...sub] of clients) {
      const r = spawnSync(cmd!, [...sub, 'config', '-q'], { cwd, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    }
  });
});
