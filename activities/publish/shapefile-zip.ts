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
