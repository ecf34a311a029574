/**
 * Feature collection publish sources: the JSON is parsed whole (a web map's collections are small;
 * UPLOAD_MAX_BYTES bounds them as it bounds workbooks), each layer a table with its declared
 * fields, geometry type, spatial reference and drawing information; loading slices its rows from a
 * row number, the resume point.
 */
import type { PublishRequest } from '../../db/schema/publish-request.js';
import { badRequest } from '../../lib/errors.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { type CollectionLayer, featureCollectionLayers } from '../../lib/ingest/feature-collection.js';
import { resolveSpatialReference } from '../../lib/projection/index.js';
import type { SourceTable } from './layer-sources.js';
import { checkListedTables, tableRequest } from './table-requests.js';

export function parseFeatureCollection(bytes: Buffer): CollectionLayer[] {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw badRequest('Unable to read the file.', ['The feature collection is not valid JSON.']);
  }
  return featureCollectionLayers(doc);
}

function spatialReferenceOf(layer: CollectionLayer, fallback: SpatialReference | null): SpatialReference {
  const sr = layer.spatialReference ?? fallback ?? { wkid: 4326 };
  try {
    resolveSpatialReference(sr);
  } catch {
    throw badRequest('Unable to publish the file.', [
      `Layer ${layer.name} uses spatial reference ${JSON.stringify(sr)}, which this server cannot project.`,
    ]);
  }
  return sr;
}

export interface CollectionTable extends SourceTable {
  collection: CollectionLayer;
}

/** One table per layer to publish, with up to `sampleRows` rows each. */
export function collectionSourceTables(
  layers: CollectionLayer[],
  request: PublishRequest,
  sampleRows: number,
): CollectionTable[] {
  checkListedTables(request, layers.length);
  const out: CollectionTable[] = [];
  layers.forEach((layer, index) => {
    const requested = tableRequest(request, index, layer.name, layers.length);
    if (!requested) return;
    out.push({
      // The collection's drawing information unless the publisher gives another.
      layer: { ...requested, layerInfo: { ...layer.layerInfo, ...requested.layerInfo } },
      headers: layer.fields.map((f) => f.name),
      sampleRows: layer.rows.slice(0, sampleRows),
      geometryType: layer.geometryType,
      declaredFields: layer.fields.map((f) => ({
        alias: f.alias,
        type: f.type,
        ...(f.length ? { length: f.length } : {}),
        nullable: f.nullable,
        ...(f.domain ? { domain: f.domain } : {}),
      })),
      source: {
        kind: 'featureCollection',
        index,
        ...(layer.hasZ ? { hasZ: true } : {}),
        ...(layer.hasM ? { hasM: true } : {}),
      },
      decimalComma: false,
      wgs84Geometry: false,
      sourceSR: spatialReferenceOf(layer, request.sourceSR),
      collection: layer,
    });
  });
  return out;
}
