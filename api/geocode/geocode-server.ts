import { type Context, Hono } from 'hono';
import { badRequest, notFound, toGeoError } from '../../lib/errors.js';
import type { BatchRecord, Locator } from '../../lib/geocode/locator.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { createTransformer, normalizeSpatialReference } from '../../lib/projection/index.js';
import type { AppEnv } from '../env.js';
import { sendError, sendJson } from '../render.js';
import { candidateJson, type PointProjector, projectedFields, selectFields } from './candidate-json.js';
import {
  addressInput,
  asRequestParams,
  batchAddresses,
  hasAddress,
  maxLocations,
  outFields,
  outSpatialReference,
  readGeocodeParams,
} from './geocode-params.js';
import { geocodeServiceJson } from './geocode-service-json.js';

export interface GeocodeRouterDeps {
  /** One locator answering at its own service name, or a lookup of locators by service name. */
  locator: Locator | ((serviceName: string) => Locator | undefined | Promise<Locator | undefined>);
  /** WGS84 → outSR; defaults to lib/projection (plain maths for Web Mercator, proj4 for the rest). */
  projectorFor?: (outSR: SpatialReference) => PointProjector;
}

const WGS84: SpatialReference = { wkid: 4326 };

const defaultProjectorFor = (outSR: SpatialReference): PointProjector => {
  const transformer = createTransformer(WGS84, outSR);
  return (x, y) => transformer.project(x, y);
};

/** Fields every batch result carries whatever outFields asks for. */
const BATCH_FIELDS = ['ResultID', 'Loc_name', 'Status', 'Score', 'Match_addr', 'LongLabel', 'Addr_type'];

/**
 * `/:name/GeocodeServer` and its findAddressCandidates and geocodeAddresses operations, mounted by the
 * API at `{prefix}/rest/services`. GET and form POST alike; parameter names in any case.
 */
export function createGeocodeRouter(deps: GeocodeRouterDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const projectorFor = deps.projectorFor ?? defaultProjectorFor;

  const locatorFor = async (name: string): Promise<Locator> => {
    const found =
      typeof deps.locator === 'function'
        ? await deps.locator(name)
        : deps.locator.info.serviceName.toLowerCase() === name.toLowerCase()
          ? deps.locator
          : undefined;
    if (!found) throw notFound('Service not found.', [`No geocode service named '${name}'.`]);
    return found;
  };

  const handle =
    (operation: (c: Context<AppEnv>, params: Map<string, string>) => unknown) =>
    async (c: Context<AppEnv>) => {
      const params = await readGeocodeParams(c).catch(() => new Map<string, string>());
      // Standalone (unit tests, another host app) nothing has parsed the parameters for the renderer.
      if (!c.get('params')) c.set('params', asRequestParams(params));
      try {
        return sendJson(c, await operation(c, params));
      } catch (error) {
        return sendError(c, toGeoError(error));
      }
    };

  const service = handle(async (c) => geocodeServiceJson((await locatorFor(c.req.param('name') ?? '')).info));

  const findAddressCandidates = handle(async (c, params) => {
    const locator = await locatorFor(c.req.param('name') ?? '');
    const input = addressInput((name) => params.get(name));
    if (!hasAddress(input)) {
      throw badRequest('Cannot perform query. Invalid query parameters.', [
        "'SingleLine' or address fields are required.",
      ]);
    }
    const outSR = outSpatialReference(params);
    const project = projectorFor(outSR);
    const wanted = outFields(params);
    const matches = locator.findAddressCandidates(input, {
      maxLocations: maxLocations(params),
      countryCode: params.get('sourcecountry') || undefined,
    });
    return {
      spatialReference: normalizeSpatialReference(outSR),
      candidates: matches.map((m) => candidateJson(m, project, wanted)),
    };
  });

  const geocodeAddresses = handle(async (c, params) => {
    const locator = await locatorFor(c.req.param('name') ?? '');
    const outSR = outSpatialReference(params);
    const project = projectorFor(outSR);
    const wanted = outFields(params);
    const records: BatchRecord[] = batchAddresses(params).map((attributes, i) => {
      const byLower = new Map(Object.entries(attributes).map(([k, v]) => [k.toLowerCase(), v]));
      const objectId = Number(byLower.get('objectid'));
      if (!Number.isInteger(objectId))
        throw badRequest("Invalid value for 'addresses'.", [`Record ${i} has no integer OBJECTID.`]);
      const get = (name: string) => {
        const v = byLower.get(name);
        return v === undefined || v === null ? undefined : String(v);
      };
      return { objectId, ...addressInput(get) };
    });
    const results = locator.geocodeAddresses(records, {
      countryCode: params.get('sourcecountry') || undefined,
    });
    return {
      spatialReference: normalizeSpatialReference(outSR),
      locations: results.map((result) => {
        if (!result.match) {
          // JSON has no NaN: ArcGIS writes the unmatched point's coordinates as the string "NaN".
          return {
            address: '',
            location: { x: 'NaN', y: 'NaN' },
            score: 0,
            attributes: {
              ResultID: result.resultId,
              Loc_name: '',
              Status: 'U',
              Score: 0,
              Match_addr: '',
              LongLabel: '',
              Addr_type: '',
            },
          };
        }
        const [x, y] = project(result.match.lon, result.match.lat);
        const fields = {
          ResultID: result.resultId,
          ...projectedFields(result.match, project),
          Status: result.status,
        };
        return {
          address: result.match.matchAddr,
          location: { x, y },
          score: result.match.score,
          attributes: selectFields(fields, wanted, BATCH_FIELDS),
        };
      }),
    };
  });

  app.on(['GET', 'POST'], '/:name/GeocodeServer', service);
  app.on(['GET', 'POST'], '/:name/GeocodeServer/', service);
  app.on(['GET', 'POST'], '/:name/GeocodeServer/findAddressCandidates', findAddressCandidates);
  app.on(['GET', 'POST'], '/:name/GeocodeServer/geocodeAddresses', geocodeAddresses);
  return app;
}
