/**
 * analyze of multi-table sources. A GeoPackage or SQLite database, or an ArcGIS feature collection:
 * every feature and attribute table with its declared fields, geometry type, (z/m,) spatial
 * reference, record count and extent (in the table's own spatial reference). The file is read whole
 * in memory, as publish does (databases up to SQLITE_MAX_BYTES).
 */

import type { PublishFileType, PublishRequest, ServiceProperties } from '../../db/schema/publish-request.js';
import type { OpenedSqlite } from '../../infra/readers/sqlite-pages.js';
import { geometryBounds, unionBounds } from '../../lib/geometry/index.js';
import { collectionSourceTables, parseFeatureCollection } from './feature-collection-source.js';
import { envelope } from './layer-definition.js';
import type { SourceTable } from './layer-sources.js';
import { openSqlite } from './sqlite-catalog.js';
import { type SqliteTable, sqliteExtent, sqliteSourceTables } from './sqlite-tables.js';

export interface AnalyzedTable {
  table: SourceTable & { name: string };
  summary: Record<string, unknown>;
}

const request = (fileType: PublishFileType, name: string): PublishRequest => ({
  ...REQUEST,
  fileType,
  serviceName: name,
  layers: [{ id: 0, name, location: { type: 'geometry' }, layerInfo: {} }],
});

/** The service properties analyze proposes for every input type (publishParameters leave them to the user). */
export const ANALYZED_SERVICE: ServiceProperties = {
  description: '',
  copyrightText: '',
  maxRecordCount: -1,
  hasStaticData: true,
  capabilities: 'Query',
  hasAttachments: false,
  editorTrackingInfo: {},
  buildInitialCache: false,
  outputType: '',
};

const REQUEST: Omit<PublishRequest, 'layers' | 'serviceName' | 'fileType'> = {
  sourceKey: '',
  sourceSize: 0,
  sourceSR: null,
  targetSR: { wkid: 102100, latestWkid: 3857 },
  service: ANALYZED_SERVICE,
  persistErrorRecordsForReview: false,
};

export async function analyzeSqlite(
  source: Uint8Array | (() => OpenedSqlite),
  name: string,
  sampleRows: number,
): Promise<AnalyzedTable[]> {
  const db = await openSqlite(source);
  try {
    const tables = await sqliteSourceTables(db, request('sqlite', name), sampleRows, undefined, true);
    const out: AnalyzedTable[] = [];
    for (const t of tables as SqliteTable[]) {
      const d = t.described;
      const sr = t.sourceSR ?? { wkid: 4326 };
      out.push({
        table: { ...t, name: d.name },
        summary: {
          id: t.layer.id,
          name: d.name,
          tableName: d.table,
          type: t.geometryType ? 'Feature Layer' : 'Table',
          ...(t.geometryType
            ? {
                geometryType: t.geometryType,
                hasZ: d.hasZ,
                hasM: d.hasM,
                spatialReference: sr,
                extent: envelope(await sqliteExtent(db, t), sr),
              }
            : {}),
          recordCount: t.count ?? 0,
        },
      });
    }
    return out;
  } finally {
    db.close();
  }
}

export function analyzeFeatureCollection(bytes: Buffer, name: string, sampleRows: number): AnalyzedTable[] {
  const tables = collectionSourceTables(
    parseFeatureCollection(bytes),
    request('featureCollection', name),
    sampleRows,
  );
  return tables.map((t) => {
    const c = t.collection;
    const sr = t.sourceSR ?? { wkid: 4326 };
    const extent = unionBounds(c.geometries.map((g) => (g && !('reason' in g) ? geometryBounds(g) : null)));
    return {
      table: { ...t, name: c.name },
      summary: {
        id: t.layer.id,
        name: c.name,
        type: t.geometryType ? 'Feature Layer' : 'Table',
        ...(t.geometryType
          ? { geometryType: t.geometryType, spatialReference: sr, extent: envelope(extent, sr) }
          : {}),
        recordCount: c.rows.length,
      },
    };
  });
}
