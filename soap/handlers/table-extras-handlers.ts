/**
 * The operations over what hosted layers have little or none of: relationships, raster fields and
 * subtypes (empty answers after checking the map, table and ids, as the real server gives for a layer
 * without them); attachments (attachments.ts); and HTML popups, built from each row's attributes.
 */
import { clientFault } from '../fault.js';
import type { geoRelateResultFormat, MapTableDescription, QueryResult } from '../schema/generated-types.js';
import type { SoapContext, SoapHandlerGroup } from '../service-types.js';
import { attachmentData, attachmentInfos } from './attachments.js';
import { htmlPopup } from './html-popup.js';
import { queryMapLayer } from './layer-query.js';
import {
  type HostedMap,
  layerOf,
  type MapLayer,
  type MapServerLocals,
  type MapServiceDeps,
  openMapFor,
} from './map-context.js';
import { describedTable } from './table-description.js';

export type TableExtraOperations =
  | 'QueryRelatedRecords'
  | 'QueryRelatedRecords2'
  | 'QueryRasterValue'
  | 'QueryRasterValue2'
  | 'QueryAttachmentInfos'
  | 'QueryAttachmentInfos2'
  | 'QueryAttachmentData'
  | 'QueryAttachmentData2'
  | 'QueryHTMLPopups'
  | 'QueryHTMLPopups2'
  | 'GetMapTableSubtypeInfos'
  | 'GetMapTableSubtypeInfos2';

async function emptyRelated(
  deps: MapServiceDeps,
  ctx: SoapContext<unknown>,
  layer: MapLayer,
  relationshipId: number,
  format: geoRelateResultFormat | undefined,
): Promise<QueryResult> {
  const related = (layer.definition.relationships as { id?: number }[] | undefined) ?? [];
  if (related.length > 0 && !related.some((r) => r.id === relationshipId)) {
    throw clientFault(`Invalid relationship ID: ${relationshipId}.`);
  }
  switch (format ?? 'geoRelateResultRelatedRecordSetAsObject') {
    case 'geoRelateResultRelatedRecordSetAsObject':
      return {
        URL: '',
        Object: {
          $type: 'RelatedRecordSet',
          RelatedRecordFields: { FieldArray: [] },
          RelatedRecordGroups: [],
        },
      };
    case 'geoRelateResultJsonAsMime':
    case 'geoRelateResultJsonAsURL': {
      const bytes = new TextEncoder().encode(JSON.stringify({ fields: [], relatedRecordGroups: [] }));
      if (format === 'geoRelateResultJsonAsMime') return { MimeData: bytes, URL: '', Object: null };
      return { URL: await deps.images.publish(bytes, 'json', ctx.endpointUrl), Object: null };
    }
    default:
      throw clientFault(
        `Related records format ${format} is not supported; use RelatedRecordSetAsObject or JSON.`,
      );
  }
}

function checkRasterField(layer: MapLayer, fieldName: string | undefined): void {
  if (!fieldName) return;
  const field = layer.catalog.fields.lookup(fieldName);
  if (!field) throw clientFault(`Invalid field: ${fieldName} is not a field of layer ${layer.id}.`);
  throw clientFault(`Field ${field.name} is not a raster field; layer ${layer.id} has no raster fields.`);
}

async function popups(
  deps: MapServiceDeps,
  map: HostedMap,
  layer: MapLayer,
  rowIds: number[],
  definitionExpression?: string,
) {
  if (!rowIds?.length) return [];
  const found = await queryMapLayer(deps, map, layer, {
    mode: 'features',
    objectIds: rowIds,
    definitionExpression,
    returnGeometry: false,
  });
  const byId = new Map(found.rows.map((r) => [r.objectid, r]));
  return rowIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [htmlPopup(layer.name, found.plan.columns, row)] : [];
  });
}

export function createTableExtraHandlers(
  deps: MapServiceDeps,
): SoapHandlerGroup<TableExtraOperations, MapServerLocals> {
  const byId = async (ctx: SoapContext<MapServerLocals>, mapName: string, id: number) => {
    const map = await openMapFor(deps, ctx, mapName);
    return { map, layer: layerOf(map, id) };
  };
  const byDescription = async (
    ctx: SoapContext<MapServerLocals>,
    mapName: string,
    d: MapTableDescription,
  ) => {
    const map = await openMapFor(deps, ctx, mapName);
    return { map, ...describedTable(map, d) };
  };
  return {
    async QueryRelatedRecords(q, ctx) {
      const { layer } = await byId(ctx, q.MapName, q.SourceTableID);
      return emptyRelated(
        deps,
        ctx,
        layer,
        q.RelateDescription.RelationshipID,
        q.RelateDescription.ResultFormat,
      );
    },
    async QueryRelatedRecords2(q, ctx) {
      const { layer } = await byDescription(ctx, q.MapName, q.MapTableDescription);
      return emptyRelated(
        deps,
        ctx,
        layer,
        q.RelateDescription.RelationshipID,
        q.RelateDescription.ResultFormat,
      );
    },
    async QueryRasterValue(q, ctx) {
      checkRasterField((await byId(ctx, q.MapName, q.SourceTableID)).layer, q.FieldName);
      return [];
    },
    async QueryRasterValue2(q, ctx) {
      checkRasterField((await byDescription(ctx, q.MapName, q.MapTableDescription)).layer, q.FieldName);
      return [];
    },
    async QueryAttachmentInfos(q, ctx) {
      const { map, layer } = await byId(ctx, q.MapName, q.TableID);
      return attachmentInfos(deps, map, layer, q.RowIDs);
    },
    async QueryAttachmentInfos2(q, ctx) {
      const { map, layer, definitionExpression } = await byDescription(ctx, q.MapName, q.MapTableDescription);
      return attachmentInfos(deps, map, layer, q.RowIDs, definitionExpression);
    },
    async QueryAttachmentData(q, ctx) {
      const { map, layer } = await byId(ctx, q.MapName, q.TableID);
      return attachmentData(deps, map, layer, q.AttachmentIDs, q.TransportType, ctx.endpointUrl);
    },
    async QueryAttachmentData2(q, ctx) {
      const { map, layer, definitionExpression } = await byDescription(ctx, q.MapName, q.MapTableDescription);
      return attachmentData(
        deps,
        map,
        layer,
        q.AttachmentIDs,
        q.TransportType,
        ctx.endpointUrl,
        definitionExpression,
      );
    },
    async QueryHTMLPopups(q, ctx) {
      const { map, layer } = await byId(ctx, q.MapName, q.TableID);
      return popups(deps, map, layer, q.RowIDs);
    },
    async QueryHTMLPopups2(q, ctx) {
      const { map, layer, definitionExpression } = await byDescription(ctx, q.MapName, q.MapTableDescription);
      return popups(deps, map, layer, q.RowIDs, definitionExpression);
    },
    async GetMapTableSubtypeInfos(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapName);
      for (const id of q.TableIDs ?? []) layerOf(map, id);
      return [];
    },
    async GetMapTableSubtypeInfos2(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapName);
      for (const d of q.LayerDescriptions ?? []) layerOf(map, d.LayerID);
      return [];
    },
  };
}
