/**
 * FeatureServer/{layer}/queryRelatedRecords: for each listed feature, the records of the related layer
 * whose key equals its key, or, in a many-to-many relationship, whose key a row of the relationship table
 * links to its key (lib/service/relationships.ts). Every lookup is an ordinary layer query, so ownership
 * filters, field checks, outSR and geometry options behave as in `query`. The answer groups records by
 * the source feature's object id, as ArcGIS does; features without related records are left out.
 * Paging (resultOffset, resultRecordCount) runs over the records of all groups in turn: groups in object
 * id order, records in orderByFields order (then object id); a page ends at resultRecordCount or the
 * related layer's maxRecordCount, and exceededTransferLimit says more follow.
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
const PASSED = ['outsr', 'maxallowableoffset', 'geometryprecision', 'returnz', 'returnm'];
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
  'orderbyfields',
  'resultoffset',
  'resultrecordcount',
]);
/** Answered with their default only. */
const DEFAULT_ONLY = new Set(['gdbversion', 'historicmoment', 'returntruecurves', 'sqlformat']);
/** The most related records (or relationship table rows) one request reads, whatever the page asked. */
export const RELATED_READ_LIMIT = 100_000;

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

/** Every row of a layer query, page by page (bounded by RELATED_READ_LIMIT); the first page's body. */
async function allRows(
  c: Context<AppEnv>,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  params: Params,
): Promise<{ first: Record<string, unknown>; rows: Feature[] }> {
  const page = Math.max(1, Number(layer.definition.maxRecordCount) || 1000);
  const rows: Feature[] = [];
  for (let offset = 0; ; offset += page) {
    const body = await layerQuery(c, service, layer, {
      ...params,
      resultoffset: String(offset),
      resultrecordcount: String(page),
    });
    const features = (body.features as Feature[]) ?? [];
    rows.push(...features);
    if (rows.length > RELATED_READ_LIMIT)
      throw badRequest('Unable to complete operation.', [
        `More than ${RELATED_READ_LIMIT} related records; ask for fewer objectIds or narrow definitionExpression.`,
      ]);
    if (!body.exceededTransferLimit || features.length === 0) return { first: body, rows };
  }
}

/** orderByFields as asked, then object id, so that pages do not overlap. */
function stableOrder(orderBy: string | undefined): string {
  const asked = present(orderBy);
  if (!asked) return 'OBJECTID ASC';
  return /(^|,)\s*objectid(\s|,|$)/i.test(asked) ? asked : `${asked},OBJECTID ASC`;
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
  const offsetText = present(params.resultoffset);
  const offset = offsetText === undefined ? 0 : readInteger('resultOffset', offsetText, 0, 1_000_000_000);
  const countText = present(params.resultrecordcount);
  const asked =
    countText === undefined ? undefined : readInteger('resultRecordCount', countText, 1, 1_000_000);
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
  // Source key → the related keys it reaches: itself, or the relationship table's links.
  const reach = new Map<string, Set<string>>();
  const relatedKeys = new Map<string, unknown>();
  const keys = [...new Set(keyOf.values())];
  if (pair.through && keys.length > 0) {
    const { ownKey, relatedKey } = pair.through;
    const table = layers.find((l) => l.layerId === pair.through?.layerId)!;
    const links = await allRows(c, service, table, {
      where: `${ownKey} IN (${keys.map(literal).join(',')})`,
      outfields: `${ownKey},${relatedKey}`,
      returngeometry: 'false',
      orderbyfields: 'OBJECTID ASC',
    });
    for (const { attributes } of links.rows) {
      const from = attributes[ownKey];
      const to = attributes[relatedKey];
      if (from === null || from === undefined || to === null || to === undefined) continue;
      const set = reach.get(String(from)) ?? new Set<string>();
      set.add(String(to));
      reach.set(String(from), set);
      relatedKeys.set(String(to), to);
    }
  } else {
    for (const key of keys) {
      reach.set(String(key), new Set([String(key)]));
      relatedKeys.set(String(key), key);
    }
  }

  const relatedKey = pair.counterpart.keyField;
  const answer: Record<string, unknown> = {};
  let records: { key: string; feature: Feature }[] = [];
  const requested = present(params.outfields) ?? '*';
  const listed = requested === '*' ? null : requested.split(',').map((s) => s.trim());
  if (relatedKeys.size > 0) {
    const withKey =
      listed && !listed.some((n) => n.toLowerCase() === relatedKey.toLowerCase())
        ? [...listed, relatedKey].join(',')
        : requested;
    const relatedParams: Params = {
      where: narrowedWhere(
        present(params.definitionexpression),
        `${relatedKey} IN (${[...relatedKeys.values()].map(literal).join(',')})`,
      ),
      outfields: countOnly ? relatedKey : withKey,
      returngeometry: countOnly ? 'false' : (params.returngeometry ?? 'true'),
      orderbyfields: stableOrder(params.orderbyfields),
    };
    for (const name of PASSED) if (params[name] !== undefined) relatedParams[name] = params[name];
    const { first, rows } = await allRows(c, service, related, relatedParams);
    const keep = (name: string) =>
      !listed || listed.some((n) => n.toLowerCase() === name.toLowerCase()) || name === 'OBJECTID';
    records = rows.map(({ attributes, geometry }) => {
      const kept = Object.fromEntries(Object.entries(attributes).filter(([name]) => keep(name)));
      return {
        key: String(attributes[relatedKey]),
        feature: { attributes: kept, ...(geometry !== undefined ? { geometry } : {}) },
      };
    });
    if (!countOnly) {
      answer.fields = ((first.fields as { name: string }[]) ?? []).filter((f) => keep(f.name));
      for (const k of ['geometryType', 'spatialReference', 'hasZ', 'hasM'])
        if (first[k] !== undefined && first.geometryType) answer[k] = first[k];
    }
  }

  const groups: Record<string, unknown>[] = [];
  const limit = asked ?? Math.max(1, Number(related.definition.maxRecordCount) || 1000);
  let skip = countOnly ? 0 : offset;
  let room = countOnly ? Number.POSITIVE_INFINITY : limit;
  let more = false;
  for (const [objectId, key] of [...keyOf.entries()].sort((a, b) => a[0] - b[0])) {
    const linked = reach.get(String(key));
    const matching = linked ? records.filter((r) => linked.has(r.key)) : [];
    if (matching.length === 0) continue;
    if (countOnly) {
      groups.push({ objectId, count: matching.length });
      continue;
    }
    const skipped = Math.min(skip, matching.length);
    skip -= skipped;
    const page = matching.slice(skipped, skipped + room);
    room -= page.length;
    if (skipped + page.length < matching.length) more = true;
    if (page.length > 0) groups.push({ objectId, relatedRecords: page.map((r) => r.feature) });
  }
  if (more) answer.exceededTransferLimit = true;
  return sendJson(c, { ...answer, relatedRecordGroups: groups });
}
