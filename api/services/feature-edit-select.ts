/**
 * The object ids deleteFeatures and queryAttachments act on when the client names them by where
 * clause or geometry: the query engine (lib/query's safe where parser and planner) answers them, as
 * for `query?returnIdsOnly=true`, without the Query capability the layer may not offer.
 */
import type { DatabaseHandle } from '../../db/client.js';
import { runFeatureQuery } from '../../db/repositories/feature-query.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { geometryBounds, spatialRelationHolds } from '../../lib/geometry/index.js';
import type { Bounds, EsriGeometry } from '../../lib/geometry/types.js';
import { createTransformer, sameSpatialReference } from '../../lib/projection/index.js';
import { normalizeQuery } from '../../lib/query/normalize/normalize-query.js';
import { planFeatureQuery } from '../../lib/query/query-plan.js';
import { layerCatalog, storageSpatialReference } from './hosted-layer.js';

export interface IdSelection {
  where?: string;
  objectIds?: string;
  geometry?: string;
  geometryType?: string;
  spatialRel?: string;
  inSR?: string;
}

export async function selectObjectIds(
  database: DatabaseHandle,
  service: HostedServiceRow,
  layer: HostedLayerRow,
  selection: IdSelection,
): Promise<number[]> {
  const catalog = layerCatalog(layer);
  const q = normalizeQuery(
    {
      where: selection.where,
      objectids: selection.objectIds,
      geometry: selection.geometry,
      geometrytype: selection.geometryType,
      spatialrel: selection.spatialRel,
      insr: selection.inSR,
      returnidsonly: 'true',
    },
    catalog,
  );
  const storage = storageSpatialReference(service);
  let filter: EsriGeometry | null = q.geometry?.geometry ?? null;
  let filterBounds: Bounds | undefined;
  if (q.geometry && filter && q.geometry.inSR && !sameSpatialReference(q.geometry.inSR, storage)) {
    filter = createTransformer(q.geometry.inSR, storage).projectGeometry(filter);
    delete filter.spatialReference;
    filterBounds = geometryBounds(filter) ?? undefined;
  }
  const plan = planFeatureQuery(q, catalog, filterBounds ? { filterBounds } : {});
  const spatial = q.geometry;
  const exact =
    spatial && filter
      ? (shape: EsriGeometry) => spatialRelationHolds(spatial.spatialRel, filter, shape)
      : undefined;
  const rows = await runFeatureQuery(database, plan, exact);
  return rows.map((r) => Number(r.objectid));
}
