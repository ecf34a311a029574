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
          String(v)
            .replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')
            .replace(/\$\{[A-Z_]+:\?[^}]*\}/g, 'Example-Secret-1'),
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

  it('is accepted by the docker compose client when one is installed, given the secrets', () => {
    const cwd = new URL('../../..', import.meta.url).pathname;
    const clients: string[][] = [['docker', 'compose'], ['docker-compose']].filter(
      ([cmd, ...sub]) => spawnSync(cmd!, [...sub, 'version'], { encoding: 'utf8' }).status === 0,
    );
    const secrets = Object.fromEntries(REQUIRED.map((name) => [name, 'Example-Secret-1']));
    for (const [cmd, ...sub] of clients) {
      const r = spawnSync(cmd!, [...sub, 'config', '-q'], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, ...secrets },
      });
      expect(r.status, r.stderr).toBe(0);
      const bare = Object.fromEntries(Object.entries(process.env).filter(([k]) => !REQUIRED.includes(k)));
      const refused = spawnSync(cmd!, [...sub, 'config', '-q'], { cwd, encoding: 'utf8', env: bare });
      expect(refused.status).not.toBe(0);
    }
  });
});

/** The secrets the operator must write to .env. */
const REQUIRED = ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD', 'PORTAL_ADMIN_PASSWORD'];
const REQUIRED_REF = /^\$\{([A-Z_]+):\?[^}]+\}$/;

/** Every environment value of every service, flattened (the app anchors merged in). */
const environments = (): [string, string, string][] =>
  Object.entries(compose.services as Record<string, { environment?: Record<string, unknown> }>).flatMap(
    ([service, def]) =>
      Object.entries(def.environment ?? {}).map(([k, v]): [string, string, string] => [
        service,
        k,
        String(v),
      ]),
  );

describe('docker-compose.yml secrets and ports', () => {
  it('holds no literal secret: every password or secret is a variable compose requires', () => {
    const secretish = environments().filter(([, key]) => /PASSWORD|SECRET|PWD/.test(key));
    expect(secretish.length).toBeGreaterThanOrEqual(6);
    for (const [service, key, value] of secretish) {
      const m = REQUIRED_REF.exec(value);
      expect(m, `${service}.${key} = ${value}`).not.toBeNull();
      expect(REQUIRED).toContain(m![1]);
    }
  });

  it('puts the database password in DATABASE_URL only as a required variable', () => {
    for (const [service, key, value] of environments().filter(([, k]) => k === 'DATABASE_URL')) {
      const password = /^postgres:\/\/[^:]+:(.*)@postgres:5432\//.exec(value)?.[1];
      expect(password, `${service}.${key}`).toMatch(REQUIRED_REF);
    }
  });

  it('publishes only the API on the host; the Temporal UI only on loopback and only in the ops profile', () => {
    const published = Object.entries(
      compose.services as Record<string, { ports?: string[]; profiles?: string[] }>,
    )
      .filter(([, def]) => def.ports?.length)
      .map(([name]) => name)
      .sort();
    expect(published).toEqual(['api', 'temporal-ui']);
    expect(compose.services.api.ports).toEqual(['8080:8080']);
    const ui = compose.services['temporal-ui'];
    expect(ui.profiles).toEqual(['ops']);
    for (const port of ui.ports as string[]) expect(port).toMatch(/^127\.0\.0\.1:/);
    for (const name of ['temporal', 'minio', 'postgres'])
      expect(compose.services[name].ports).toBeUndefined();
  });
});
