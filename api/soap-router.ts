/**
 * The map-server SOAP endpoint of each hosted service: `POST {prefix}/services/Hosted/{name}/MapServer`
 * with a SOAP 1.1 envelope, `GET …/MapServer?wsdl` for the WSDL, and `GET …/MapServer/output/{file}`
 * for images and results a client asked to receive as a URL. Every failure is a SOAP fault.
 */
import { type Context, Hono } from 'hono';
import type { Database } from '../db/client.js';
import { findServiceByName } from '../db/repositories/services.js';
import type { UserRow } from '../db/repositories/users.js';
import type { ServedTiles } from '../infra/served-tiles.js';
import { SOAP_CONTENT_TYPE } from '../soap/dispatcher.js';
import { clientFault, faultFromError, renderFault, SoapFault } from '../soap/fault.js';
import { mapTileSource } from '../soap/handlers/tile-cache-reader.js';
import { createMapServerSoap, type MapServerSoap } from '../soap/service.js';
import type { AppDeps, AppEnv } from './env.js';
import { createServiceAuthorizer, type ServiceAuthorizer } from './services/service-access.js';
import { publicRoot } from './urls.js';

/** SOAP requests are small XML documents; anything larger is refused before it is read whole. */
export const MAX_SOAP_BODY_BYTES = 8 * 1024 ** 2;

/**
 * Checks that the caller may read the service a SOAP request addresses: a cached map service (tile
 * service) by that name, or else a ready feature service. Reading features asks for the feature
 * service they are in as well (`mayRead`, at every feature read: soap/handlers/layer-query.ts), so a
 * public tile service serves its tiles while the data it was drawn from stays private, as on REST. A
 * name that matches nothing is left to the handlers' own "not found" fault.
 */
async function checkSoapAccess(
  db: Database,
  soap: MapServerSoap,
  authorize: ServiceAuthorizer,
  name: string,
  viewer: UserRow | undefined,
): Promise<void> {
  const cache = await soap.cacheRows(db, 'MapServer', name); // failed caches are left out
  if (cache) {
    await authorize(db, cache.serviceItemId, viewer);
    return;
  }
  const service = await findServiceByName(db, name);
  if (service?.status === 'ready') await authorize(db, service.serviceItemId, viewer);
}

const faultResponse = (c: Context<AppEnv>, fault: SoapFault) =>
  c.body(renderFault(fault), 500, { 'content-type': SOAP_CONTENT_TYPE });

const endpointOf = (c: Context<AppEnv>, name: string) => `${publicRoot(c)}/services/Hosted/${name}/MapServer`;

async function readCapped(c: Context<AppEnv>): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_SOAP_BODY_BYTES) throw tooLarge();
  const reader = c.req.raw.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_SOAP_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = () =>
  new SoapFault('Client', {
    code: 413,
    message: `The request is larger than ${MAX_SOAP_BODY_BYTES} bytes.`,
    details: [],
  });

/** `tiles`: the app's tile reader and cache rows, so GetMapTile shares the REST tiles' memory. */
export function createSoapRouter(tiles: ServedTiles): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const authorize = createServiceAuthorizer();
  // Made on the first request, when the app's dependencies are at hand; one per router.
  let soap: MapServerSoap | undefined;
  const soapOf = (deps: AppDeps): MapServerSoap => {
    soap ??= createMapServerSoap(
      {
        database: deps.database,
        store: deps.store,
        now: deps.now,
        tiles: mapTileSource(tiles.reader),
        cacheRows: tiles.rows,
      },
      {
        onServerFault: (fault, cause, operation) =>
          deps.log.error('soap fault', { fault: fault.message, cause, operation }),
      },
    );
    return soap;
  };
  // Secured services take the token in the URL (…/MapServer?token=…) or an Authorization header.
  const guard = async (c: Context<AppEnv>): Promise<SoapFault | undefined> => {
    try {
      const deps = c.get('deps');
      await checkSoapAccess(
        deps.database.db,
        soapOf(deps),
        authorize,
        c.req.param('name') ?? '',
        c.get('user'),
      );
      return undefined;
    } catch (error) {
      return faultFromError(error);
    }
  };

  router.post('/Hosted/:name/MapServer', async (c) => {
    const deps = c.get('deps');
    const name = c.req.param('name');
    const refused = await guard(c);
    if (refused) return faultResponse(c, refused);
    let body: string;
    try {
      body = await readCapped(c);
    } catch (error) {
      return faultResponse(
        c,
        error instanceof SoapFault ? error : clientFault('The request body could not be read.'),
      );
    }
    const res = await soapOf(deps).service.handle({
      body,
      soapAction: c.req.header('soapaction'),
      serviceName: name,
      endpointUrl: endpointOf(c, name),
      locals: {
        user: c.get('user'),
        mayRead: (serviceItemId: string) => authorize(deps.database.db, serviceItemId, c.get('user')),
      },
    });
    return c.body(res.body, res.status as 200 | 500, { 'content-type': res.contentType });
  });

  router.get('/Hosted/:name/MapServer', async (c) => {
    const deps = c.get('deps');
    const name = c.req.param('name');
    if (!new URL(c.req.url).searchParams.has('wsdl')) {
      return faultResponse(c, clientFault('Send SOAP requests with POST; GET answers only ?wsdl.'));
    }
    const refused = await guard(c);
    if (refused) return faultResponse(c, refused);
    const soap = soapOf(deps);
    let mapName: string;
    try {
      mapName = await soap.mapName(name);
    } catch (error) {
      return faultResponse(c, faultFromError(error));
    }
    const res = soap.service.wsdl({ serviceName: mapName, endpointUrl: endpointOf(c, name) });
    return c.body(res.body, 200, { 'content-type': res.contentType });
  });

  router.get('/Hosted/:name/MapServer/output/:file', async (c) => {
    const found = await soapOf(c.get('deps')).images.read(c.req.param('file'));
    if (!found) return c.body('Not Found', 404, { 'content-type': 'text/plain' });
    return c.body(new Uint8Array(found.bytes), 200, {
      'content-type': found.contentType,
      'cache-control': 'private, max-age=600',
    });
  });

  return router;
}
