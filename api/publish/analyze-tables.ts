/**
 * analyze of a GeoPackage or SQLite database: every feature and attribute table with its declared
 * fields, geometry type, z/m, spatial reference, record count and extent (in the table's own
 * spatial reference). The file is read whole in memory, as publish does, up to SQLITE_MAX_BYTES.
 */
import type { Database } from 'sql.js';
import { envelope } from '../../activities/publish/layer-definition.js';
import { openSqlite } from '../../activities/publish/sqlite-catalog.js';
import {
  type SqliteTable,
  sqliteExtent,
  sqliteSourceTables,
} from '../../activities/publish/sqlite-tables.js';
import type { PublishRequest } from '../../db/schema/publish-request.js';

export interface AnalyzedSqliteTable {
  table: SqliteTable;
  summary: Record<string, unknown>;
}

const REQUEST: Omit<PublishRequest, 'layers' | 'serviceName'> = {
  fileType: 'sqlite',
  sourceKey: '',
  sourceSize: 0,
  sourceSR: null,
  targetSR: { wkid: 102100, latestWkid: 3857 },
  service: {
    description: '',
    copyrightText: '',
    maxRecordCount: -1,
    hasStaticData: true,
    capabilities: 'Query',
    hasAttachments: false,
    editorTrackingInfo: {},
    buildInitialCache: false,
    outputType: '',
  },
  persistErrorRecordsForReview: false,
};

export async function analyzeSqlite(
  bytes: Uint8Array,
  name: string,
  sampleRows: number,
): Promise<AnalyzedSqliteTable[]> {
  const db: Database = await openSqlite(bytes);
  try {
    const tables = sqliteSourceTables(
      db,
      {
        ...REQUEST,
        serviceName: name,
        layers: [{ id: 0, name, location: { type: 'geometry' }, layerInfo: {} }],
      },
      sampleRows,
    );
    return tables.map((t) => {
      const d = t.described;
      const sr = t.sourceSR ?? { wkid: 4326 };
      return {
        table: t,
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
                extent: envelope(sqliteExtent(db, t), sr),
              }
            : {}),
          recordCount: t.count,
        },
      };
    });
  } finally {
    db.close();
  }
}
