/**
 * QueryAttachmentInfos and QueryAttachmentData (and their `2` forms, which name the layer by a
 * MapTableDescription whose DefinitionExpression narrows the features): the attachments the REST
 * FeatureServer stores for a layer's features, metadata from `feature_attachments`, bytes from the
 * object store. Only attachments of features the caller may see are answered, as on REST: the
 * features are read through the layer query, which applies the service's access and ownership rules.
 */
import { type AttachmentRow, attachmentsByIds, listAttachments } from '../../db/repositories/attachments.js';
import { clientFault } from '../fault.js';
import type { AttachmentData, AttachmentInfo, geoTransportType } from '../schema/generated-types.js';
import { queryMapLayer } from './layer-query.js';
import type { HostedMap, MapLayer, MapServiceDeps } from './map-context.js';

const infoOf = (row: AttachmentRow): AttachmentInfo => ({
  AttachmentID: row.id,
  ParentID: row.objectId,
  Name: row.name,
  ContentType: row.contentType,
  Size: row.size,
});

const hasAttachments = (map: HostedMap, layer: MapLayer) =>
  map.service !== null && layer.definition.hasAttachments === true;

/** Of these object ids, those of features the map's viewer sees (under the definition expression). */
async function visibleIds(
  deps: MapServiceDeps,
  map: HostedMap,
  layer: MapLayer,
  objectIds: readonly number[],
  definitionExpression: string | undefined,
): Promise<Set<number>> {
  if (objectIds.length === 0) return new Set();
  const found = await queryMapLayer(deps, map, layer, { mode: 'ids', objectIds, definitionExpression });
  return new Set(found.ids);
}

/** The attachments of the listed rows (features), by row then attachment id; rows without any add nothing. */
export async function attachmentInfos(
  deps: MapServiceDeps,
  map: HostedMap,
  layer: MapLayer,
  rowIds: readonly number[] | undefined,
  definitionExpression?: string,
): Promise<AttachmentInfo[]> {
  if (!rowIds?.length || !hasAttachments(map, layer) || !map.service) return [];
  const ids = [...(await visibleIds(deps, map, layer, rowIds, definitionExpression))];
  const rows = await listAttachments(deps.database.db, map.service.serviceItemId, layer.id, ids);
  return rows.map(infoOf);
}

/**
 * The listed attachments with their bytes (`geoTransportTypeEmbedded`) or the REST URL that serves
 * them (`geoTransportTypeUrl`, under the same access rules). An id that is not an attachment of a
 * feature the caller sees is a client fault naming it.
 */
export async function attachmentData(
  deps: MapServiceDeps,
  map: HostedMap,
  layer: MapLayer,
  attachmentIds: readonly number[] | undefined,
  transport: geoTransportType,
  endpointUrl: string,
  definitionExpression?: string,
): Promise<AttachmentData[]> {
  if (!attachmentIds?.length) return [];
  const service = hasAttachments(map, layer) ? map.service : null;
  const rows = service
    ? await attachmentsByIds(deps.database.db, service.serviceItemId, layer.id, attachmentIds)
    : [];
  const visible = await visibleIds(
    deps,
    map,
    layer,
    [...new Set(rows.map((r) => r.objectId))],
    definitionExpression,
  );
  const byId = new Map(rows.filter((r) => visible.has(r.objectId)).map((r) => [r.id, r]));
  const missing = attachmentIds.find((id) => !byId.has(id));
  if (missing !== undefined) throw clientFault(`Attachment ${missing} does not exist in layer ${layer.id}.`);
  const out: AttachmentData[] = [];
  for (const id of attachmentIds) {
    const row = byId.get(id) as AttachmentRow;
    const embedded = transport === 'geoTransportTypeEmbedded';
    out.push({
      Data: embedded ? new Uint8Array(await deps.store.getBuffer(row.objectKey)) : new Uint8Array(),
      AttachmentInfo: infoOf(row),
      URL: embedded || !service ? '' : restAttachmentUrl(endpointUrl, service.name, layer.id, row),
      TransportType: transport,
    });
  }
  return out;
}

/** `…/services/Hosted/{map}/MapServer` → `…/rest/services/Hosted/{service}/FeatureServer/{layer}/{oid}/attachments/{id}`. */
function restAttachmentUrl(
  endpointUrl: string,
  service: string,
  layerId: number,
  row: AttachmentRow,
): string {
  const feature = `/rest/services/Hosted/${encodeURIComponent(service)}/FeatureServer`;
  const rest = endpointUrl.replace(/\/services\/Hosted\/[^/]+\/MapServer$/, feature);
  return `${rest}/${layerId}/${row.objectId}/attachments/${row.id}`;
}
