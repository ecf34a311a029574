/**
 * FeatureServer/{layer}/queryRelatedRecords: for each listed feature, the records of the related layer
 * whose key equals its key (lib/service/relationships.ts). Both lookups are ordinary layer queries, so
 * ownership filters, field checks, outSR and geometry options behave as in `query`. The answer groups
 * records by the source feature's object id, as ArcGIS does; features without related records are left out.
 */
import type { Context } from 'hono';
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { listLayers } from '../../db/repositories/services.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { badRequest } from '../../lib/errors.js';
import { present, readBoolean, readInteger } from '../../lib/query/normalize/parameter-values.js';
import { relationshipPair } from '../../lib/service/relationships.js';
import type { AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { queryFeatureLayer } from './layer-query.js';
import { requestLayer } from './request-layer.js';

type Params = Record<string, string | undefined>;
type Feature = { attributes: Record<string, unknown>; geometry?: unknown };

/** Passed on to the related layer's query as they came. */
const PASSED = ['outsr', 'maxallowableoffset', 'geometryprecision', 'returnz', 'returnm', 'orderbyfields'];
const OWN = new Set([
  'f',
  'token',
  'callback',
  'objectids',
  'relationshipid',
  'outfields',
  'definitionexpression',
  'returngeometry',
  'returncountonly',
]);
/** Answered with their default only. */
const DEFAULT_ONLY = new Set(['gdbversion', 'historicmoment', 'returntruecurves', 'sqlformat']);

function checkParameters(params: Params): void {
  for (const [name, value] of Object.entries(params)) {
    if (PASSED.includes(name) || OWN.has(name)) continue;
    const v = present(value)?.toLowerCase();
    if (DEFAULT_ONLY.has(name) && (v === undefined || v === 'false' || v === 'none' || v === 'standard'))
      continue;
    throw badRequest('Unable to complete operation.', [`'${name}' is not supported by queryRelatedRecords.`]);
  }
}

/** A key value as a where-clause literal. */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

async function layerQuery(
  c: Context<AppEnv>,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  params: Params,
): Promise<Record<string, unknown>> {
  const deps = c.get('deps');
  const own = await ownFeaturesWhere(deps.database.db, service, layer, c.get('user'));
  const query = { ...params, f: 'json', ...(own ? { where: narrowedWhere(params.where, own) } : {}) };
  return (await queryFeatureLayer(deps.database, service, layer, query)).body as Record<string, unknown>;
}

export async function sendRelatedRecords(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const params: Params = c.get('params').all();
  checkParameters(params);
  const { service, layer } = await requestLayer(c);
  const idsText = present(params.objectids);
  if (!idsText) throw badRequest('Unable to complete operation.', ["'objectIds' is required."]);
  const relText = present(params.relationshipid);
  if (relText === undefined)
    throw badRequest('Unable to complete operation.', ["'relationshipId' is required."]);
  const relationshipId = readInteger('relationshipId', relText, 0, 999_999);
  const countOnly = readBoolean('returnCountOnly', params.returncountonly, false);
  const layers = await listLayers(c.get('deps').database.db, service.serviceItemId);
  const pair = relationshipPair(layers, layer.layerId, relationshipId);
  const related = layers.find((l) => l.layerId === pair.relatedLayerId)!;

  // The listed features' keys (only features the caller may see).
  const sourceKey = pair.relationship.keyField;
  const source = await layerQuery(c, service, layer, {
    objectids: idsText,
    outfields: sourceKey,
    returngeometry: 'false',
  });
  const keyOf = new Map<number, unknown>();
  for (const f of (source.features as Feature[]) ?? []) {
    const key = f.attributes[sourceKey];
    if (key !== null && key !== undefined) keyOf.set(Number(f.attributes.OBJECTID), key);
  }
  const relatedKey = pair.counterpart.keyField;
  const keys = [...new Set(keyOf.values())];
  const answer: Record<string, unknown> = {};
  let records: Feature[] = [];
  if (keys.length > 0) {
    const requested = present(params.outfields) ?? '*';
    const listed = requested === '*' ? null : requested.split(',').map((s) => s.trim());
    const withKey =
      listed && !listed.some((n) => n.toLowerCase() === relatedKey.toLowerCase())
        ? [...listed, relatedKey].join(',')
        : requested;
    const relatedParams: Params = {
      where: narrowedWhere(
        present(params.definitionexpression),
        `${relatedKey} IN (${keys.map(literal).join(',')})`,
      ),
      outfields: withKey,
      returngeometry: countOnly ? 'false' : (params.returngeometry ?? 'true'),
    };
    for (const name of PASSED) if (params[name] !== undefined) relatedParams[name] = params[name];
    const body = await layerQuery(c, service, related, relatedParams);
    records = (body.features as Feature[]) ?? [];
    if (!countOnly) {
      const keep = (name: string) =>
        !listed || listed.some((n) => n.toLowerCase() === name.toLowerCase()) || name === 'OBJECTID';
      answer.fields = ((body.fields as { name: string }[]) ?? []).filter((f) => keep(f.name));
      for (const k of ['geometryType', 'spatialReference', 'hasZ', 'hasM'])
        if (body[k] !== undefined && body.geometryType) answer[k] = body[k];
      if (body.exceededTransferLimit) answer.exceededTransferLimit = true;
      if (listed && withKey !== requested) {
        records = records.map((r) => {
          const attributes = { ...r.attributes };
          delete attributes[relatedKey];
          return { ...r, attributes, _key: r.attributes[relatedKey] } as Feature;
        });
      }
    }
  }
  const keyOfRecord = (r: Feature) =>
    '_key' in r ? (r as Feature & { _key: unknown })._key : r.attributes[relatedKey];
  const groups: Record<string, unknown>[] = [];
  for (const [objectId, key] of [...keyOf.entries()].sort((a, b) => a[0] - b[0])) {
    const matching = records.filter((r) => String(keyOfRecord(r)) === String(key));
    if (matching.length === 0) continue;
    groups.push(
      countOnly
        ? { objectId, count: matching.length }
        : {
            objectId,
            relatedRecords: matching.map(({ attributes, geometry }) => ({
              attributes,
              ...(geometry !== undefined ? { geometry } : {}),
            })),
          },
    );
  }
  return sendJson(c, { ...answer, relatedRecordGroups: groups });
}
