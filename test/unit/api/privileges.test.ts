import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app.js';
import type { AppDeps, AppEnv } from '../../../api/env.js';
import { ruleIndex } from '../../../api/privilege-guard.js';
import { privilegeRow, privilegeTableMarkdown } from '../../../api/privilege-table.js';
import { ROUTE_RULES } from '../../../api/privileges.js';
import { loadConfig } from '../../../infra/config.js';

/** The app as the entry point composes it; building it does no I/O, so its dependencies stay unused. */
function mountedApp(basePath = ''): Hono<AppEnv> {
  const unused = {} as never;
  const deps = {
    config: loadConfig({ BASE_PATH: basePath }),
    database: unused,
    store: unused,
    temporal: unused,
    log: unused,
    now: Date.now,
    portalId: 'p',
    portalName: 'Portal',
    locator: unused,
    tiles: unused,
    itemDeletionHooks: [],
    passwords: unused,
  } satisfies AppDeps;
  return createApp(deps);
}

/** Every handler route the app mounts (middleware is mounted for ALL methods), as `METHOD path`. */
const handlerRoutes = (app: Hono<AppEnv>, basePath = '') => [
  ...new Set(
    app.routes
      .filter((r) => r.method !== 'ALL')
      .map(
        (r) => `${r.method} ${r.path.startsWith(basePath) ? r.path.slice(basePath.length) || '/' : r.path}`,
      ),
  ),
];

describe('the privilege table', () => {
  it('has a rule for every route the app mounts', () => {
    const index = ruleIndex();
    const routes = handlerRoutes(mountedApp());
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((r) => !index.has(r))).toEqual([]);
  });

  it('has a rule for every route under a BASE_PATH too', () => {
    const index = ruleIndex();
    expect(handlerRoutes(mountedApp('/portal'), '/portal').filter((r) => !index.has(r))).toEqual([]);
  });

  it('names only paths the app mounts', () => {
    const mounted = new Set(handlerRoutes(mountedApp()).map((r) => r.slice(r.indexOf(' ') + 1)));
    const stale = ROUTE_RULES.flatMap((rule) => rule.paths).filter((p) => !mounted.has(p));
    expect(stale).toEqual([]);
  });

  it('fails for a route added without a rule', () => {
    const app = mountedApp();
    app.post('/sharing/rest/content/users/:username/somethingNew', (c) => c.text('x'));
    const index = ruleIndex();
    expect(handlerRoutes(app).filter((r) => !index.has(r))).toEqual([
      'POST /sharing/rest/content/users/:username/somethingNew',
    ]);
  });

  it('refuses two rules for one route', () => {
    const rule = ROUTE_RULES[0]!;
    expect(() => ruleIndex([rule, { ...rule, operation: 'again' }])).toThrow(/Two privilege rules/);
  });
});

describe('the README privilege table', () => {
  it('is the table generated from the rules', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const security = readme.slice(readme.indexOf('## Security'), readme.indexOf('## Configuration'));
    expect(security).toContain('### Privileges');
    expect(security).toContain(privilegeTableMarkdown());
  });

  it('says what each kind of caller may do with an item', () => {
    const item = ROUTE_RULES.find((r) => r.operation === 'item');
    expect(item && privilegeRow(item)).toEqual([
      'item',
      'public only',
      'yes',
      'yes',
      'yes',
      'yes',
      'if shared with the group',
      'if org or public',
    ]);
    const publish = ROUTE_RULES.find((r) => r.operation === 'publish');
    expect(publish && privilegeRow(publish).slice(1, 5)).toEqual(['no', 'no', 'own', 'yes']);
  });
});
