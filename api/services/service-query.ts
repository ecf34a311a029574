/**
 * FeatureServer/query: one query over several layers of a service. `layerDefs` names the layers with
 * their where clause and outFields; the service-wide parameters (geometry filter, time, returnGeometry,
 * counts, ids, outSR…) apply to each. Each layer's part is an ordinary layer query (same validation,
 * ownership filter, limits), answered as `{"layers":[{"id":0,…}]}`.
 */
import type { Context } from 'hono';
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import { type HostedLayerRow, type HostedServiceRow, listLayers } from '../../db/repositories/services.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { badRequest } from '../../lib/errors.js';
import { present, readBoolean } from '../../lib/query/normalize/parameter-values.js';
import { type LayerDef, parseLayerDefs } from '../../lib/service/layer-defs.js';
import type { AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { queryFeatureLayer } from './layer-query.js';

/** Parameters that apply to every layer queried, passed on to each layer's query as they came. */
const SHARED = [
  'geometry',
  'geometrytype',
  'spatialrel',
  'insr',
  'outsr',
  'returngeometry',
  'returncountonly',
  'returnidsonly',
  'maxallowableoffset',
  'geometryprecision',
  'returnz',
  'returnm',
];

/** Parameters of the service query that carry nothing a layer query needs. */
const OWN = new Set(['f', 'token', 'callback', 'layerdefs', 'time']);

/**
 * ArcGIS's other service-query parameters: accepted when they ask for the default (empty or false), refused
 * otherwise, so no client gets an answer that silently ignored what it asked.
 */
const DEFAULT_ONLY = new Set([
  'gdbversion',
  'historicmoment',
  'returntruecurves',
  'sqlformat',
  'returnzm',
  'datumtransformation',
  'returnunfilteredsourcegeometry',
]);

const hasTime = (layer: HostedLayerRow) => {
  const info = layer.definition.timeInfo as { startTimeField?: unknown } | undefined;
  return typeof info?.startTimeField === 'string' && info.startTimeField !== '';
};

function checkParameters(params: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(params)) {
    if (SHARED.includes(name) || OWN.has(name)) continue;
    const v = present(value)?.toLowerCase();
    if (DEFAULT_ONLY.has(name) && (v === undefined || v === 'false' || v === 'none')) continue;
    throw badRequest('Invalid or missing input parameters.', [
      `'${name}' is not supported by the feature service query (query a layer for it).`,
    ]);
  }
}

/** The layers to query: those layerDefs names, or with only a geometry filter, every layer that has geometry. */
function layersToQuery(
  layers: HostedLayerRow[],
  params: Record<string, string | undefined>,
): { layer: HostedLayerRow; def: LayerDef }[] {
  const raw = present(params.layerdefs);
  if (!raw) {
    if (!present(params.geometry))
      throw badRequest('Invalid or missing input parameters.', [
        "'layerDefs' is required unless a 'geometry' filter is given.",
      ]);
    return layers
      .filter((l) => l.definition.type !== 'Table')
      .map((layer) => ({ layer, def: { layerId: layer.layerId } }));
  }
  return parseLayerDefs(raw).map((def) => {
    const layer = layers.find((l) => l.layerId === def.layerId);
    if (!layer)
      throw badRequest('Invalid or missing input parameters.', [`Layer ${def.layerId} does not exist.`]);
    return { layer, def };
  });
}

export async function sendServiceQuery(c: Context<AppEnv>, service: HostedServiceRow) {
  format(c, ['json', 'pjson']);
  const deps = c.get('deps');
  const params: Record<string, string | undefined> = c.get('params').all();
  checkParameters(params);
  // Both flags at once have no single answer shape; ArcGIS gives the count. Read once to report bad values.
  const countOnly = readBoolean('returnCountOnly', params.returncountonly, false);
  const targets = layersToQuery(await listLayers(deps.database.db, service.serviceItemId), params);
  const answers: Record<string, unknown>[] = [];
  for (const { layer, def } of targets) {
    const layerParams: Record<string, string | undefined> = { f: 'json' };
    for (const name of SHARED) if (params[name] !== undefined) layerParams[name] = params[name];
    if (countOnly) delete layerParams.returnidsonly;
    // A table has no location: the service-wide geometry filter applies to the layers that have one.
    if (layer.definition.type === 'Table') {
      for (const name of ['geometry', 'geometrytype', 'spatialrel', 'insr']) delete layerParams[name];
    }
    // Time applies to layers with a time field, as on ArcGIS; the others answer without it.
    if (params.time !== undefined && hasTime(layer)) layerParams.time = params.time;
    layerParams.where = def.where;
    layerParams.outfields = def.outFields ?? '*';
    const own = await ownFeaturesWhere(deps.database.db, service, layer, c.get('user'));
    if (own) layerParams.where = narrowedWhere(layerParams.where, own);
    const out = await queryFeatureLayer(deps.database, service, layer, layerParams);
    answers.push({ id: layer.layerId, ...(out.body as Record<string, unknown>) });
  }
  return sendJson(c, { layers: answers });
}
