/**
 * The GeoPackage read path alone, no database: how fast the streaming SQLite reader turns a
 * generated point GeoPackage (written by ogr2ogr) into batches, and how fast those batches are
 * then encoded for COPY by the loader's row encoder, on one thread; and how fast the load's own path
 * (each record encoded as read, `sqliteRecordBatches`, as the encoder threads run it) turns the table
 * into COPY bytes. Prints the load average.
 *
 *   npx tsx bench/ingest-gpkg-read.ts [--rows 200000]
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CopyBinaryWriter } from '../activities/publish/copy-binary.js';
import { planLayer } from '../activities/publish/layer-plan.js';
import { createRowEncoder } from '../activities/publish/row-encoder.js';
import { openSqlite } from '../activities/publish/sqlite-catalog.js';
import { sqliteBatches, sqliteRecordBatches } from '../activities/publish/sqlite-source.js';
import { sqliteSourceTables } from '../activities/publish/sqlite-tables.js';
import type { PublishRequest } from '../db/schema/publish-request.js';
import { openSqlitePath } from '../infra/readers/sqlite-pages.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' } } });
const rows = Number(values.rows);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gpkg-read-'));
  try {
    const csv = join(dir, 'points.csv');
    const out = createWriteStream(csv);
    out.write('id,name,address,city,category,value,created,lat,lon\n');
    for (let i = 1; i <= rows; i++) {
      const lat = (41.6 + (i % 3800) / 10000).toFixed(5);
      const lon = (-87.9 + (i % 4500) / 10000).toFixed(5);
      const day = String((i % 28) + 1).padStart(2, '0');
      const line = `${i},point ${i},${i} Main Street,City ${i % 100},c${i % 7},${(i % 997) / 10},2024-01-${day},${lat},${lon}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    await new Promise((r) => out.end(r));
    const gpkg = join(dir, 'points.gpkg');
    const made = spawnSync('ogr2ogr', [
      ...['-f', 'GPKG', gpkg, csv, '-nln', 'points', '-a_srs', 'EPSG:4326', '-gt', '65536'],
      ...['-oo', 'X_POSSIBLE_NAMES=lon', '-oo', 'Y_POSSIBLE_NAMES=lat', '-oo', 'AUTODETECT_TYPE=YES'],
    ]);
    if (made.status !== 0) throw new Error(`ogr2ogr failed: ${made.stderr}`);
    console.log(
      `${rows} features, ${(statSync(gpkg).size / 2 ** 20).toFixed(0)} MB; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    const request = {
      fileType: 'sqlite',
      sourceKey: 'bench',
      sourceSize: 0,
      serviceName: 'points',
      sourceSR: null,
      targetSR: { wkid: 102100, latestWkid: 3857 },
      layers: [{ id: 0, name: 'points', location: { type: 'geometry' }, layerInfo: {} }],
      persistErrorRecordsForReview: false,
    } as unknown as PublishRequest;
    const db = await openSqlite(() => openSqlitePath(gpkg));
    try {
      let started = performance.now();
      const [table] = await sqliteSourceTables(db, request, 1000);
      const planSeconds = (performance.now() - started) / 1000;
      if (table.source.kind !== 'sqlite' || !table.sourceSR) throw new Error('not a sqlite layer');
      const plan = planLayer({
        serviceItemId: 'b'.repeat(32),
        layer: table.layer,
        sample: {
          headers: table.headers,
          rows: table.sampleRows,
          geometryType: table.geometryType,
          declaredFields: table.declaredFields,
        },
        source: table.source,
        sourceSR: table.sourceSR,
      });
      const encoder = createRowEncoder(plan, request.targetSR, plan.sourceSR);
      let read = 0;
      let encode = 0;
      let n = 0;
      const batches = sqliteBatches(db, table.source, table.geometryType ?? null, {
        byteOffset: 0,
        rowNumber: 0,
      });
      for (;;) {
        started = performance.now();
        const next = batches.next();
        const between = performance.now();
        read += between - started;
        if (next.done) break;
        encoder.encode(next.value.rows, next.value.firstRowNumber, next.value.geometries);
        encode += performance.now() - between;
        n += next.value.rows.length;
      }
      // The load's path: records encoded as read into one COPY writer, emptied after each piece, the
      // file read as the load threads read it (its blocks reused, the pages held copied).
      const recycled = await openSqlite(() => openSqlitePath(gpkg, { recycleBlocks: true }));
      const w = new CopyBinaryWriter(4 << 20);
      let copyBytes = 0;
      let recordRows = 0;
      const cpu = process.cpuUsage();
      started = performance.now();
      for (const piece of sqliteRecordBatches(
        recycled,
        table.source,
        table.geometryType ?? null,
        { byteOffset: 0, rowNumber: 0 },
        encoder,
        () => w,
      )) {
        recordRows += piece.loaded;
        copyBytes += w.finish().length;
        w.restart();
      }
      const records = performance.now() - started;
      recycled.close();
      const recordCpu = process.cpuUsage(cpu);
      const rate = (ms: number, rows = n) => Math.round(rows / (ms / 1000)).toLocaleString('en');
      console.log(`planning (count, text widths, sample): ${planSeconds.toFixed(2)} s`);
      console.log(`read and decoded: ${n} rows in ${(read / 1000).toFixed(2)} s, ${rate(read)} rows/s`);
      console.log(
        `read, decoded and encoded: ${((read + encode) / 1000).toFixed(2)} s, ${rate(read + encode)} rows/s`,
      );
      console.log(
        `records encoded as read (the load's path): ${recordRows} rows, ${copyBytes} COPY bytes in ${(records / 1000).toFixed(2)} s (${((recordCpu.user + recordCpu.system) / 1e6).toFixed(2)} CPU-s), ${rate(records, recordRows)} rows/s`,
      );
      console.log(
        `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
