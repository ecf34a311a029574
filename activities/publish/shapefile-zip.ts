/**
 * The shapefiles of a zip as GeoJSON collections: the archive is read under its budget (only the
 * .shp, .dbf, .prj and .cpg entries are inflated), then shpjs parses each shapefile from its parts.
 * shpjs applies the .prj (features come out in WGS84) and the .cpg code page.
 */
import shp from 'shpjs';
import { badRequest } from '../../lib/errors.js';
import type { GeoJSONFeature } from '../../lib/geometry/geojson-types.js';
import { type ArchiveBudget, unzipWithBudget } from '../../lib/ingest/archive-budget.js';

export interface ShapefileCollection {
  /** The shapefile's name without folder or extension. */
  name: string;
  features: GeoJSONFeature[];
}

const PART = /^(.*)\.(shp|dbf|prj|cpg)$/i;

const wanted = (name: string) => PART.test(name) && !name.includes('__MACOSX');

const damagedDbf = (name: string, why: string) =>
  badRequest('Unable to read the file.', [`The shapefile ${name} cannot be read: its .dbf file ${why}.`]);

/**
 * Refuses a .dbf whose header promises more than the file holds, before shpjs reads it. shpjs's dBase
 * reader makes one row per record the header counts and one value per field, reading past the end as
 * empty values: a damaged count (one flipped byte of a real file said 1.2 billion records) ran it out of
 * memory. Here the records must fit in the file, and the fields (each at least a byte) in a record, so
 * the rows and values made are bounded by the file's size.
 */
export function checkDbfHeader(dbf: Uint8Array, name: string): void {
  if (dbf.length < 33) throw damagedDbf(name, 'is shorter than a dBase header');
  const view = new DataView(dbf.buffer, dbf.byteOffset, dbf.length);
  const records = view.getUint32(4, true);
  const headerLength = view.getUint16(8, true);
  const recordLength = view.getUint16(10, true);
  if (headerLength > dbf.length) throw damagedDbf(name, `header says it is ${headerLength} bytes long`);
  // The field descriptors as shpjs walks them: 32 bytes each from offset 32, up to the 0x0D terminator.
  let fieldBytes = 0;
  for (let offset = 32; offset < headerLength - 1; offset += 32) {
    if (offset + 32 > dbf.length) throw damagedDbf(name, 'ends inside its field descriptors');
    const length = dbf[offset + 16];
    if (length === 0) throw damagedDbf(name, `has a field of length 0 at byte ${offset}`);
    fieldBytes += length;
    if (offset + 32 >= dbf.length || dbf[offset + 32] === 0x0d) break;
  }
  if (records > 0 && fieldBytes + 1 > recordLength) {
    throw damagedDbf(name, `has fields of ${fieldBytes} bytes in records of ${recordLength}`);
  }
  const room = recordLength > 0 ? Math.floor(Math.max(0, dbf.length - headerLength) / recordLength) : 0;
  if (records > room) {
    throw damagedDbf(
      name,
      `header counts ${records} records of ${recordLength} bytes, but the file holds ${room}`,
    );
  }
}

export async function readShapefileZip(
  bytes: Uint8Array,
  budget: ArchiveBudget,
): Promise<ShapefileCollection[]> {
  const entries = await unzipWithBudget(bytes, budget, wanted);
  const parts = new Map<string, Partial<Record<'shp' | 'dbf' | 'prj' | 'cpg', Uint8Array>>>();
  for (const [name, data] of entries) {
    const m = PART.exec(name);
    if (!m) continue;
    const stem = m[1];
    const found = parts.get(stem) ?? {};
    found[m[2].toLowerCase() as 'shp' | 'dbf' | 'prj' | 'cpg'] = data;
    parts.set(stem, found);
  }
  const out: ShapefileCollection[] = [];
  for (const [stem, p] of parts) {
    if (!p.shp) continue;
    if (p.dbf) checkDbfHeader(p.dbf, stem.split('/').pop() ?? stem);
    let parsed: { features?: GeoJSONFeature[] };
    try {
      parsed = (await shp({ shp: p.shp, dbf: p.dbf, prj: p.prj, cpg: p.cpg })) as typeof parsed;
    } catch (e) {
      throw badRequest('Unable to read the file.', [
        `The shapefile ${stem.split('/').pop()} cannot be read: ${e instanceof Error ? e.message : String(e)}`,
      ]);
    }
    out.push({ name: stem.split('/').pop() ?? stem, features: parsed.features ?? [] });
  }
  if (out.length === 0)
    throw badRequest('Unable to read the file.', ['The zip holds no shapefile (.shp, .shx, .dbf).']);
  return out;
}
