/** Composes the routers under BASE_PATH; each surface renders errors in its own wire format. */
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { GeoError, isGeoError, toGeoError } from '../lib/errors.js';
import { createFeatureServiceAdminRouter } from './admin/feature-service-admin.js';
import { AnonymousSpools } from './anonymous-spools.js';
import { authenticate, findTokenGrant, grantedUser, headerToken } from './auth.js';
import { clientAddress } from './client-address.js';
import { CORS_OPTIONS } from './cors.js';
import type { AppDeps, AppEnv } from './env.js';
import { createGeocodeServices } from './geocode/geocode-services.js';
import { portalHomePage } from './html/portal-pages.js';
import { createStaticRouter } from './html/static-router.js';
import { createViewerRouter } from './html/viewer-page.js';
import { parseParams } from './params.js';
import { createPortalBasicsRouter } from './portal/basics.js';
import { createPortalRouter } from './portal/router.js';
import { createSignOutRouter } from './portal/sign-out.js';
import { privilegeGuard } from './privilege-guard.js';
import { createPublishRouter } from './publish/publish-router.js';
import { errorEnvelope, sendError } from './render.js';
import { createRequestLookups, mayWrite } from './request-lookups.js';
import { requestPath } from './request-path.js';
import { createRestInfoRouter } from './rest-info.js';
import { createServiceCatalogRouter } from './services/catalog.js';
import { createFeatureServerRouter } from './services/feature-server.js';
import { createMapServerRouter } from './services/map-server.js';
import { createOgcFeatureServerRouter, isOgcPath, sendOgcError } from './services/ogc-feature-server.js';
import { createVectorTileServerRouter } from './services/vector-tile-server.js';
import { createWmsRouter } from './services/wms-server.js';
import { createSoapRouter } from './soap-router.js';
import { acceptsFiles, uploadStaging } from './upload-routes.js';

/**
 * The app. The tile routes here, SOAP's GetMapTile and the lean tile path in front of the server
 * (http-server.ts) all read through `deps.tiles`, so all share one tile memory and one row memo.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ getPath: requestPath });
  const limits = {
    tmpDir: join(deps.config.dataDir, 'tmp'),
    maxUploadBytes: deps.config.uploadMaxBytes,
    maxFormBytes: deps.config.bodyLimits.maxFormBytes,
    maxAnonymousBytes: deps.config.bodyLimits.maxAnonymousBytes,
    maxFields: deps.config.bodyLimits.maxFields,
  };
  const spools = new AnonymousSpools(deps.config.anonymousSpools);
  // Token, service and access lookups remembered briefly; a request that may write forgets them all.
  const lookups = createRequestLookups(deps.database.db, deps.now);

  app.use('*', cors(CORS_OPTIONS));
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('lookups', lookups);
    const pathname = new URL(c.req.url).pathname;
    const { params, cleanup } = await parseParams(c.req.raw, limits, {
      acceptsFiles: acceptsFiles(pathname),
      stage: uploadStaging(pathname, deps.store),
      token: headerToken((name) => c.req.header(name)),
      address: clientAddress(c),
      spools,
      body: unreadBody(c),
      signsIn: async (token) =>
        grantedUser(await findTokenGrant(deps.database.db, token, deps.now()), {
          referer: c.req.header('referer'),
          address: clientAddress(c),
        }) !== undefined,
    }).catch((e: unknown) => {
      // A refused body may be unread: the connection cannot carry another request.
      c.header('Connection', 'close');
      throw e;
    });
    c.set('params', params);
    try {
      await next();
    } finally {
      if (mayWrite(c.req.method, requestPath(c.req.raw))) lookups.clear();
      await cleanup();
    }
  });
  app.use('*', authenticate());
  app.use('*', privilegeGuard(deps.config.basePath));

  // Routers sharing a prefix answer disjoint paths (test/unit/api/route-overlap.test.ts): order is free.
  const root = new Hono<AppEnv>();
  // The pages for people: the portal's home, the map viewer and their static files.
  root.get('/', (c) => portalHomePage(c));
  root.route('/', createStaticRouter());
  root.route('/apps', createViewerRouter());
  root.route('/sharing/rest', createPublishRouter());
  root.route('/sharing/rest', createPortalBasicsRouter());
  root.route('/sharing/rest', createSignOutRouter());
  root.route('/', createPortalRouter());
  root.route('/rest/services', createGeocodeServices(deps));
  root.route('/rest', createFeatureServerRouter());
  root.route('/rest', createFeatureServiceAdminRouter());
  root.route('/rest', createOgcFeatureServerRouter());
  root.route('/rest', createMapServerRouter(deps.tiles));
  root.route('/rest', createVectorTileServerRouter(deps.tiles));
  root.route('/rest', createRestInfoRouter());
  root.route('/rest', createServiceCatalogRouter());
  root.route('/services', createWmsRouter(deps.tiles));
  root.route('/services', createSoapRouter(deps.tiles));
  app.route(deps.config.basePath || '/', root);

  app.notFound((c) => {
    const known = ['GET', 'POST', 'HEAD', 'OPTIONS'].includes(c.req.method);
    const e = new GeoError({
      code: known ? 404 : 405,
      message: known ? 'Not Found' : 'Method Not Allowed',
      details: [
        known ? `No resource at ${new URL(c.req.url).pathname}.` : `${c.req.method} is not supported.`,
      ],
    });
    return c.json(errorEnvelope(e), known ? 404 : 405);
  });

  app.onError((err, c) => {
    const e = toGeoError(err);
    if (!isGeoError(err)) deps.log.error('unhandled error', { err, path: new URL(c.req.url).pathname });
    if (isOgcPath(new URL(c.req.url).pathname)) return sendOgcError(c, e);
    if (!c.get('params')) return c.json(errorEnvelope(e), 200);
    return sendError(c, e);
  });

  return app;
}

/** The Node stream the request's body arrives on, when the Node adapter gave one and nothing has read it. */
function unreadBody(c: Context<AppEnv>): Readable | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof Readable) || incoming.readableDidRead) return undefined;
  if ('rawBody' in incoming) return undefined;
  return incoming;
}
