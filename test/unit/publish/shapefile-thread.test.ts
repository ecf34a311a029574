import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS, parseShapefileZip } from '../../../activities/publish/parse-thread.js';
import { writeZip, zipBomb } from '../../fixtures/ingest/zip-writer.js';

const wards = readFileSync(
  join(import.meta.dirname, '..', '..', 'fixtures', 'publish', 'wards-stateplane.zip'),
);

describe('parseShapefileZip (in a parse thread)', () => {
  it('reads the wards shapefile with its projection applied', async () => {
    const [table, ...rest] = await parseShapefileZip(wards);
    expect(rest).toEqual([]);
    expect(table.name).toBe('wards');
    expect(table.geometryType).toBe('esriGeometryPolygon');
    expect(table.rows.length).toBe(table.geometries.length);
    // Illinois State Plane feet, projected by shpjs to WGS84: Chicago's longitudes and latitudes.
    const ring = (table.geometries[0] as { rings: number[][][] }).rings[0];
    for (const [x, y] of ring) {
      expect(x).toBeGreaterThan(-88.5);
      expect(x).toBeLessThan(-87);
      expect(y).toBeGreaterThan(41);
      expect(y).toBeLessThan(42.5);
    }
  });

  it('refuses a zip bomb named like a shapefile part with the ratio budget, within seconds', async () => {
    const started = Date.now();
    await expect(parseShapefileZip(zipBomb('wards.dbf', 4096))).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        details: ['The archive inflates to more than 100 times its compressed size (ARCHIVE_MAX_RATIO).'],
      }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a zip without a shapefile', async () => {
    await expect(
      parseShapefileZip(writeZip([{ name: 'readme.txt', data: Buffer.from('hi'), method: 0 }])),
    ).rejects.toThrow(
      expect.objectContaining({ details: ['The zip holds no shapefile (.shp, .shx, .dbf).'] }),
    );
  });

  it('refuses a zip-slip entry name', async () => {
    await expect(
      parseShapefileZip(writeZip([{ name: '../../evil.shp', data: Buffer.from('x'), method: 0 }])),
    ).rejects.toThrow(
      expect.objectContaining({ details: [`The entry name "../../evil.shp" has a '..' segment.`] }),
    );
  });

  it('gives up after the parse deadline', async () => {
    await expect(parseShapefileZip(wards, { ...DEFAULT_PARSE_LIMITS, timeoutMs: 1 })).rejects.toThrow(
      expect.objectContaining({
        details: [expect.stringMatching(/longer than 0 s \(PARSE_TIMEOUT_SECONDS\)/)],
      }),
    );
  });

  it('refuses a damaged shapefile with the reader’s reason', async () => {
    await expect(
      parseShapefileZip(
        writeZip([{ name: 'bad.shp', data: Buffer.from('not a shapefile at all'), method: 0 }]),
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 400, message: 'Unable to read the file.' }));
  });
});
