import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../api/env.js';
import { createPortalBasicsRouter } from '../../../api/portal/basics.js';
import { sharingRouters } from '../../../api/portal/router.js';
import { createPublishRouter } from '../../../api/publish/publish-router.js';
import { createRestInfoRouter } from '../../../api/rest-info.js';
import { createServiceCatalogRouter } from '../../../api/services/catalog.js';
import { createFeatureServerRouter } from '../../../api/services/feature-server.js';
import { createMapServerRouter } from '../../../api/services/map-server.js';
import { createVectorTileServerRouter } from '../../../api/services/vector-tile-server.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import { createServedTiles } from '../../../infra/served-tiles.js';

// The routers mounted side by side under sharing/rest (app.ts, api/portal/router.ts) must not answer the
// same path: then the order they are mounted in cannot change which handler answers a request.
type Route = { router: number; method: string; path: string };

const routesOf = (routers: Hono<AppEnv>[]): Route[] =>
  routers.flatMap((r, router) =>
    r.routes.filter((x) => !x.path.endsWith('*')).map((x) => ({ router, method: x.method, path: x.path })),
  );

/** Whether one path segment can match what another can: a literal, `:name` or `:name{regex}`. */
function segmentsMeet(a: string, b: string): boolean {
  const param = (s: string) => /^:[^{]+(?:\{(.+)\})?$/.exec(s);
  const pa = param(a);
  const pb = param(b);
  if (!pa && !pb) return a === b;
  if (pa && pb) return true; // two parameters: taken to meet (conservative)
  const [p, literal] = pa ? [pa, b] : [pb!, a];
  return p[1] === undefined || new RegExp(`^(?:${p[1]})$`).test(literal);
}

function pathsMeet(a: string, b: string): boolean {
  const sa = a.split('/').filter(Boolean);
  const sb = b.split('/').filter(Boolean);
  return sa.length === sb.length && sa.every((s, i) => segmentsMeet(s, sb[i]!));
}

const overlaps = (routes: Route[]) =>
  routes.flatMap((a, i) =>
    routes
      .slice(i + 1)
      .filter(
        (b) => a.router !== b.router && (a.method === b.method || a.method === 'ALL' || b.method === 'ALL'),
      )
      .filter((b) => pathsMeet(a.path, b.path))
      .map((b) => `${a.method} ${a.path} ~ ${b.path}`),
  );

describe('routers mounted together under sharing/rest', () => {
  it('tell a fixed word from a parameter, as the overlap check needs', () => {
    expect(pathsMeet('/content/users/:u/addItem', '/content/users/:u/:folderId{[0-9a-f]{32}}')).toBe(false);
    expect(pathsMeet('/content/users/:u/addItem', '/content/users/:u/:folder')).toBe(true);
  });

  it('answer disjoint paths, so their mounting order does not matter', () => {
    const routes = routesOf([...sharingRouters(), createPublishRouter(), createPortalBasicsRouter()]);
    expect(routes.length).toBeGreaterThan(40);
    expect(overlaps(routes)).toEqual([]);
  });
});

describe('routers mounted together under rest', () => {
  it('answer disjoint paths, so their mounting order does not matter', () => {
    const tiles = createServedTiles({} as ObjectStore, { maxTileBytes: 0 });
    const routes = routesOf([
      createFeatureServerRouter(),
      createMapServerRouter(tiles),
      createVectorTileServerRouter(tiles),
      createRestInfoRouter(),
      createServiceCatalogRouter(),
    ]);
    expect(routes.length).toBeGreaterThan(20);
    expect(overlaps(routes)).toEqual([]);
  });
});
