/**
 * Find (text over attributes), Identify (features under a shape, with a tolerance in pixels) and
 * QueryHyperlinks. Layers are chosen by option, LayerIDs and the LayerDescriptions' visibility and
 * definition expressions; shapes come back in the MapDescription's spatial reference.
 */
import { distanceToGeometry } from '../../lib/geometry/index.js';
import type { EsriGeometry } from '../../lib/geometry/types.js';
import type { CatalogField } from '../../lib/query/field-catalog.js';
import type { FeatureRow } from '../../lib/query/row-mapping.js';
import { toWireValue } from '../../lib/query/wire-values.js';
import { clientFault } from '../fault.js';
import type {
  LayerDescription,
  MapServerFindResult,
  MapServerIdentifyResult,
} from '../schema/generated-types.js';
import type { SoapHandlerGroup } from '../service-types.js';
import { htmlPopup } from './html-popup.js';
import { queryMapLayer } from './layer-query.js';
import { displayView } from './map-area.js';
import {
  type HostedMap,
  layersOf,
  type MapLayer,
  type MapServerLocals,
  type MapServiceDeps,
  openMapFor,
} from './map-context.js';
import { type MapView, visibleAtScale } from './map-display.js';
import { geometrySpatialReference, toEsriGeometry, toSoapGeometry } from './wire-geometry.js';
import { featureProperties, formattedValue } from './wire-records.js';

export type SearchOperations = 'Find' | 'Identify' | 'QueryHyperlinks';

/** The layers a display operation may search: by ids, then visibility when the option asks for it. */
function searchLayers(
  map: HostedMap,
  ids: readonly number[] | undefined,
  descriptions: readonly LayerDescription[] | undefined,
  visibleOnly: boolean,
  view: MapView,
): { layer: MapLayer; definitionExpression?: string }[] {
  const given = new Map((descriptions ?? []).map((d) => [d.LayerID, d]));
  return layersOf(map, ids)
    .filter((l) => !l.isTable)
    .filter(
      (l) =>
        !visibleOnly ||
        ((given.size ? given.get(l.id)?.Visible === true : l.definition.defaultVisibility !== false) &&
          visibleAtScale(view.scale, l.definition.minScale, l.definition.maxScale)),
    )
    .map((layer) => ({
      layer,
      definitionExpression: given.get(layer.id)?.DefinitionExpression || undefined,
    }));
}

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Which value of a row matches the search, if any, in field order. */
function firstMatch(
  fields: readonly CatalogField[],
  row: FeatureRow,
  text: string,
  contains: boolean,
): CatalogField | undefined {
  return fields.find((f) => {
    const v = toWireValue(row.attrs[f.name], f.type);
    if (v === null || v === undefined) return false;
    const s = String(v);
    return contains ? s.toLowerCase().includes(text.toLowerCase()) : s === text;
  });
}

function findCondition(fields: readonly CatalogField[], text: string, contains: boolean): string | undefined {
  const numeric = text.trim() !== '' && Number.isFinite(Number(text));
  const parts = fields.flatMap((f) => {
    if (f.type === 'esriFieldTypeString') {
      return contains
        ? [`UPPER(${f.name}) LIKE ${quote(`%${text.toUpperCase()}%`)}`]
        : [`${f.name} = ${quote(text)}`];
    }
    if (/Integer|Double|Single|OID/.test(f.type) && numeric) return [`${f.name} = ${Number(text)}`];
    return [];
  });
  return parts.length ? parts.join(' OR ') : undefined;
}

export function createSearchHandlers(
  deps: MapServiceDeps,
): SoapHandlerGroup<SearchOperations, MapServerLocals> {
  return {
    async Find(q, ctx) {
      const md = q.MapDescription;
      const map = await openMapFor(deps, ctx, md.Name);
      const view = await displayView(deps, map, md, q.MapImageDisplay);
      if (!q.SearchString) throw clientFault('SearchString is empty.');
      const names = (q.SearchFields ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const visibleOnly = q.FindOption !== 'geoFindAllLayers';
      const results: MapServerFindResult[] = [];
      for (const { layer, definitionExpression } of searchLayers(
        map,
        q.LayerIDs,
        md.LayerDescriptions,
        visibleOnly,
        view,
      )) {
        const all = layer.catalog.fields.all();
        const fields = names.length
          ? all.filter((f) => names.some((n) => n.toLowerCase() === f.name.toLowerCase()))
          : all.filter((f) => f.type !== 'esriFieldTypeOID');
        const where = findCondition(fields, q.SearchString, q.Contains);
        if (!where) continue;
        const found = await queryMapLayer(deps, map, layer, {
          mode: 'features',
          where,
          definitionExpression,
          outSR: view.sr,
        });
        for (const row of found.rows) {
          const field = firstMatch(fields, row, q.SearchString, q.Contains);
          if (!field) continue;
          results.push({
            Value: formattedValue(row.attrs[field.name], field.type),
            LayerID: layer.id,
            FeatureID: row.objectid,
            FieldName: field.name,
            ...(row.shape ? { Shape: toSoapGeometry(row.shape as EsriGeometry, view.sr) } : {}),
            Properties: featureProperties(found.plan.columns, row),
          });
          if (results.length >= map.maxRecordCount) return results;
        }
      }
      return results;
    },

    async Identify(q, ctx) {
      const md = q.MapDescription;
      const map = await openMapFor(deps, ctx, md.Name);
      const view = await displayView(deps, map, md, q.MapImageDisplay);
      if (!q.SearchShape) throw clientFault('SearchShape is missing.');
      const shape = toEsriGeometry(q.SearchShape);
      const tolerance = Math.max(0, q.Tolerance ?? 0) * view.resolution;
      const option = q.IdentifyOption ?? 'geoIdentifyTopmost';
      const topmost = option === 'geoIdentifyTopmost' || option === 'geoIdentifyTopOneWithHTMLPopup';
      const withPopup = option.endsWith('HTMLPopup');
      const visibleOnly = option !== 'geoIdentifyAllLayers';
      const point = 'x' in shape ? shape : null;
      const searchGeometry: EsriGeometry = point
        ? {
            xmin: point.x - tolerance,
            ymin: point.y - tolerance,
            xmax: point.x + tolerance,
            ymax: point.y + tolerance,
          }
        : shape;
      const results: MapServerIdentifyResult[] = [];
      for (const { layer, definitionExpression } of searchLayers(
        map,
        q.LayerIDs,
        md.LayerDescriptions,
        visibleOnly,
        view,
      )) {
        const found = await queryMapLayer(deps, map, layer, {
          mode: 'features',
          definitionExpression,
          geometry: {
            geometry: searchGeometry,
            sr: geometrySpatialReference(q.SearchShape) ?? view.sr,
            spatialRel: 'esriSpatialRelIntersects',
          },
          outSR: view.sr,
        });
        const hits = point
          ? found.rows
              .map((row) => ({
                row,
                d: row.shape ? distanceToGeometry(point.x, point.y, row.shape) : Infinity,
              }))
              .filter((h) => h.d <= tolerance)
              .sort((a, b) => a.d - b.d)
              .map((h) => h.row)
          : found.rows;
        for (const row of hits) {
          const display = found.plan.columns.find((c) => c.name === layer.displayField);
          results.push({
            LayerID: layer.id,
            Name: display ? formattedValue(row.attrs[display.name], display.type) : String(row.objectid),
            Properties: featureProperties(found.plan.columns, row),
            ...(row.shape ? { Shape: toSoapGeometry(row.shape as EsriGeometry, view.sr) } : {}),
            Relationships: [],
            ...(withPopup ? { HTMLPopup: htmlPopup(layer.name, found.plan.columns, row) } : {}),
            FeatureID: row.objectid,
          });
          if (results.length >= map.maxRecordCount) return results;
        }
        if (topmost && hits.length > 0) break;
      }
      return results;
    },

    async QueryHyperlinks(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapDescription.Name);
      layersOf(map, q.LayerIDs);
      // Hosted layers have no hyperlink field (MapLayerInfo.HasHyperlinks is false): nothing to list.
      return [];
    },
  };
}
