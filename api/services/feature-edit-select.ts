/**
 * The object ids deleteFeatures and queryAttachments act on when the client names them by where
 * clause or geometry: the query engine (lib/query's safe where parser and planner) answers them, as
 * for `query?returnIdsOnly=true`, without the Query capability the layer may not offer.
 */
import type { DatabaseHandle } from '../../db/client.js';
import { runPreparedQuery } from '../../db/repositories/feature-query.js';
import type { HostedLayerRow, HostedServiceRow } from '../../db/repositories/services.js';
import { layerCatalog, storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import { prepareFeatureQuery } from '../../lib/query/prepare-feature-query.js';

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
  const prepared = prepareFeatureQuery(
    {
      where: selection.where,
      objectids: selection.objectIds,
      geometry: selection.geometry,
      geometrytype: selection.geometryType,
      spatialrel: selection.spatialRel,
      insr: selection.inSR,
      returnidsonly: 'true',
    },
    layerCatalog(layer),
    storageSpatialReference(service),
  );
  const rows = await runPreparedQuery(database, prepared);
  return rows.map((r) => Number(r.objectid));
}
