/**
 * GeoJSON publish sources read from the object store as a stream: planning describes the whole file
 * (property names, geometry type, mixed columns) from one pass holding only a sample, and loading
 * reads the features again in batches from a feature number, which is the resume point.
 */

import type { ObjectStore } from '../../infra/object-store.js';
import type { GeoJSONFeature } from '../../lib/geometry/geojson-types.js';
import type { EsriGeometryType } from '../../lib/geometry/types.js';
import { geoJsonItems } from '../../lib/ingest/geojson-stream.js';
import {
  checkedFeature,
  documentFeatures,
  type FeatureTable,
  FeatureTableBuilder,
  featureGeometry,
  featureRow,
} from './feature-source.js';
import type { ResumePoint, SourceBatch } from './layer-sources.js';

export const GEOJSON_BATCH_ROWS = 2000;

/** Every feature of a GeoJSON byte stream, in order. */
export async function* geoJsonFeatures(
  chunks: AsyncIterable<Buffer | Uint8Array>,
): AsyncGenerator<GeoJSONFeature> {
  for await (const item of geoJsonItems(chunks)) {
    if (item.kind === 'feature') yield checkedFeature(item.value);
    else yield* documentFeatures(item.value);
  }
}

/** Every feature of the stored file, in order. */
export async function* storedGeoJsonFeatures(
  store: ObjectStore,
  key: string,
): AsyncGenerator<GeoJSONFeature> {
  const stream = await store.getStream(key);
  try {
    yield* geoJsonFeatures(stream);
  } finally {
    stream.destroy();
  }
}

/** A GeoJSON stream described in one pass; rows and geometries hold only the first `keep` features. */
export async function describeGeoJson(
  features: AsyncIterable<GeoJSONFeature>,
  name: string,
  keep: number,
): Promise<FeatureTable & { count: number }> {
  const builder = new FeatureTableBuilder(keep);
  for await (const f of features) builder.add(f);
  return { ...builder.table(name), count: builder.count };
}

/** The stored file described in one pass. */
export const scanGeoJson = (store: ObjectStore, key: string, name: string, keep: number) =>
  describeGeoJson(storedGeoJsonFeatures(store, key), name, keep);

/** Batches of rows and geometries from the feature numbered `start.rowNumber` to the end. */
export async function* geoJsonBatches(
  store: ObjectStore,
  key: string,
  headers: readonly string[],
  geometryType: EsriGeometryType | null,
  start: ResumePoint,
  hasZ = false,
  size = GEOJSON_BATCH_ROWS,
): AsyncGenerator<SourceBatch> {
  let n = 0;
  let batch: SourceBatch = emptyBatch(start.rowNumber);
  for await (const f of storedGeoJsonFeatures(store, key)) {
    if (n++ < start.rowNumber) continue;
    batch.rows.push(featureRow(f, headers));
    batch.geometries?.push(featureGeometry(f, geometryType, hasZ));
    if (batch.rows.length >= size) {
      batch.next = { byteOffset: 0, rowNumber: n };
      yield batch;
      batch = emptyBatch(n);
    }
  }
  if (batch.rows.length > 0) {
    batch.next = { byteOffset: 0, rowNumber: n };
    yield batch;
  }
}

const emptyBatch = (firstRowNumber: number): SourceBatch => ({
  rows: [],
  geometries: [],
  firstRowNumber,
  next: { byteOffset: 0, rowNumber: firstRowNumber },
});
