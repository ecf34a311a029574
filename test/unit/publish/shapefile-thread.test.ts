import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARSE_LIMITS, parseShapefileZip } from '../../../activities/publish/parse-thread.js';
import { checkDbfHeader } from '../../../activities/publish/shapefile-zip.js';
import { wardsWithDamagedDbf } from '../../fixtures/ingest/damaged-dbf.js';
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

  it('refuses at once a .dbf whose header counts more records than the file holds', async () => {
    const { zip, records, headerLength, recordLength, length } = await wardsWithDamagedDbf();
    // The undamaged header's records fit its file.
    expect(headerLength + records * recordLength).toBeLessThanOrEqual(length);
    const room = Math.floor((length - headerLength) / recordLength);
    await expect(parseShapefileZip(zip)).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        details: [
          `The shapefile wards cannot be read: its .dbf file header counts ${72 * 2 ** 24 + records} records of ${recordLength} bytes, but the file holds ${room}.`,
        ],
      }),
    );
  });

  it('bounds a .dbf by its size: fields must fit their record and have a length', () => {
    // A header of 32 bytes, two 32-byte field descriptors, the 0x0D terminator, then the records.
    const dbf = (records: number, recordLength: number, fieldLengths: [number, number], size: number) => {
      const bytes = Buffer.alloc(size);
      bytes[0] = 3;
      bytes.writeUInt32LE(records, 4);
      bytes.writeUInt16LE(97, 8);
      bytes.writeUInt16LE(recordLength, 10);
      bytes.write('A', 32);
      bytes.write('B', 64);
      bytes[32 + 11] = 'C'.charCodeAt(0);
      bytes[64 + 11] = 'C'.charCodeAt(0);
      bytes[32 + 16] = fieldLengths[0];
      bytes[64 + 16] = fieldLengths[1];
      bytes[96] = 0x0d;
      return bytes;
    };
    const reason = (bytes: Buffer) => {
      try {
        checkDbfHeader(bytes, 't');
      } catch (e) {
        return (e as { details: string[] }).details[0];
      }
      return 'read';
    };
    expect(reason(dbf(10, 6, [2, 3], 97 + 60))).toBe('read');
    expect(reason(dbf(10, 6, [2, 3], 97 + 59))).toBe(
      'The shapefile t cannot be read: its .dbf file header counts 10 records of 6 bytes, but the file holds 9.',
    );
    expect(reason(dbf(10, 6, [2, 5], 97 + 60))).toBe(
      'The shapefile t cannot be read: its .dbf file has fields of 7 bytes in records of 6.',
    );
    expect(reason(dbf(10, 6, [2, 0], 97 + 60))).toBe(
      'The shapefile t cannot be read: its .dbf file has a field of length 0 at byte 64.',
    );
    expect(reason(dbf(0, 0, [2, 3], 97))).toBe('read');
    expect(reason(dbf(1, 0, [2, 3], 97 + 60))).toBe(
      'The shapefile t cannot be read: its .dbf file has fields of 5 bytes in records of 0.',
    );
    expect(reason(Buffer.alloc(20))).toBe(
      'The shapefile t cannot be read: its .dbf file is shorter than a dBase header.',
    );
  });
});
