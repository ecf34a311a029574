/**
 * File geodatabases (a zipped .gdb folder) are read by GDAL's OpenFileGDB driver compiled to
 * WebAssembly (gdal3.js: no native build, no download) and converted to a GeoPackage, which the
 * GeoPackage reader then publishes: feature classes become layers (feature datasets flattened, each
 * class under its own name), tables become tables, and GDAL writes the domains as GeoPackage
 * constraints and the aliases as column titles, which that reader turns back into Esri domains.
 * GDAL's conversion does not carry relationship classes, so they are read from the geodatabase itself
 * (`ogrinfo -json`, which lists what GDAL parses from GDB_Items) and handed back beside the GeoPackage.
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import initGdalJs, { type Gdal } from 'gdal3.js/node.js';
import { badRequest, isGeoError } from '../../lib/errors.js';
import {
  type ArchiveBudget,
  DEFAULT_ARCHIVE_BUDGET,
  unzipWithBudget,
} from '../../lib/ingest/archive-budget.js';
import type { GdalRelationship } from '../../lib/service/geodatabase-relationships.js';

const unreadable = (detail: string) => badRequest('Unable to read the file.', [detail]);

let engine: Promise<{ Gdal: Gdal; dest: string }> | undefined;
/**
 * The compiled GDAL module, one per process; its calls are serialized (one file system, one heap).
 * Its output folder is a directory on disk (`dest`), so converted files do not stay in its heap.
 */
const gdal = () => {
  engine ??= (async () => {
    const dest = mkdtempSync(join(tmpdir(), 'geoportal-gdal-'));
    const files = join(
      dirname(createRequire(import.meta.url).resolve('gdal3.js/node.js')),
      'dist',
      'package',
    );
    const Gdal = await initGdalJs({
      // gdal3.js reads its data file at "./" + path: a path relative to the working directory.
      path: relative(process.cwd(), files),
      useWorker: false,
      dest,
    });
    return { Gdal, dest };
  })();
  return engine;
};
let queue: Promise<unknown> = Promise.resolve();
let converted = 0;

/**
 * The zip's entries, read under the archive budget: the bytes actually inflated are counted as they
 * come (never the sizes the headers declare), so a small zip cannot fill the worker's memory. The zip
 * itself is bounded by SQLITE_MAX_BYTES, and so is what GDAL is given.
 */
export async function zipEntries(
  bytes: Uint8Array,
  budget: ArchiveBudget = DEFAULT_ARCHIVE_BUDGET,
): Promise<Record<string, Uint8Array>> {
  try {
    return Object.fromEntries(await unzipWithBudget(bytes, budget));
  } catch (e) {
    if (isGeoError(e)) throw unreadable(e.details.join(' ') || e.message);
    throw unreadable(`The file is not a readable zip: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The .gdb folder of the zip and its files (paths inside the folder). */
export function geodatabaseFiles(entries: Record<string, Uint8Array>): {
  folder: string;
  files: Map<string, Uint8Array>;
} {
  const names = Object.keys(entries).filter((n) => !n.endsWith('/'));
  const table = names.find((n) => /(^|\/)[^/]+\.gdb\/a0000000[1-9]\.gdbtable$/i.test(n));
  if (!table)
    throw unreadable(
      `The zip holds no file geodatabase (a .gdb folder with .gdbtable files); it holds: ${names.slice(0, 10).join(', ') || 'nothing'}.`,
    );
  const folder = table.slice(0, table.lastIndexOf('/'));
  const files = new Map<string, Uint8Array>();
  for (const n of names) if (n.startsWith(`${folder}/`)) files.set(n.slice(folder.length + 1), entries[n]);
  return { folder: folder.split('/').pop() as string, files };
}

/** A converted geodatabase: its tables as a GeoPackage and its relationship classes as GDAL lists them. */
export interface ConvertedGeodatabase {
  gpkg: Uint8Array;
  relationships: Record<string, GdalRelationship>;
}

/** The zipped file geodatabase as GeoPackage bytes. */
export const fileGeodatabaseToGeoPackage = async (
  zip: Uint8Array,
  budget?: ArchiveBudget,
): Promise<Uint8Array> => (await convertGeodatabase(await zipEntries(zip, budget))).gpkg;

/** The zipped file geodatabase converted, with its relationship classes. */
export const convertFileGeodatabase = async (
  zip: Uint8Array,
  budget?: ArchiveBudget,
): Promise<ConvertedGeodatabase> => convertGeodatabase(await zipEntries(zip, budget));

/** The file geodatabase among an archive's entries (a zip's, a service definition's) as GeoPackage bytes. */
export async function geodatabaseToGeoPackage(entries: Record<string, Uint8Array>): Promise<Uint8Array> {
  return (await convertGeodatabase(entries)).gpkg;
}

/** The file geodatabase among an archive's entries, converted, with its relationship classes. */
export function convertGeodatabase(entries: Record<string, Uint8Array>): Promise<ConvertedGeodatabase> {
  const { folder, files } = geodatabaseFiles(entries);
  const run = queue.then(() => convert(folder, files));
  queue = run.catch(() => undefined);
  return run;
}

async function convert(folder: string, files: Map<string, Uint8Array>): Promise<ConvertedGeodatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'geoportal-gdb-'));
  try {
    const path = join(dir, folder.toLowerCase().endsWith('.gdb') ? folder : `${folder}.gdb`);
    await mkdir(path);
    for (const [name, data] of files) {
      if (name.includes('/') || name.startsWith('.')) continue; // the geodatabase's own files are flat
      await writeFile(join(path, name), data);
    }
    const { Gdal, dest } = await gdal();
    let opened: Awaited<ReturnType<typeof Gdal.open>>;
    try {
      opened = await Gdal.open(path);
    } catch (e) {
      // gdal3.js rejects with the list of GDAL's errors when a damaged table stops the open.
      throw unreadable(`GDAL cannot open the file geodatabase: ${errorText(e)}`);
    }
    const dataset = opened.datasets[0];
    if (!dataset)
      throw unreadable(`GDAL cannot open the file geodatabase: ${opened.errors.join('; ') || 'no dataset'}.`);
    try {
      const info = (await Gdal.ogrinfo(dataset, ['-json', '-so', '-nomd'])) as {
        relationships?: Record<string, GdalRelationship>;
      };
      const out = await Gdal.ogr2ogr(dataset, ['-f', 'GPKG'], `converted-${++converted}`);
      const written = join(dest, basename(out.local));
      try {
        return { gpkg: await readFile(written), relationships: info.relationships ?? {} };
      } finally {
        await rm(written, { force: true });
      }
    } catch (e) {
      throw unreadable(`GDAL cannot read the file geodatabase: ${errorText(e)}`);
    } finally {
      await Gdal.close(dataset);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * GDAL's words for a failure, without the paths of gdal3.js's build machine: its errors read "Error
 * occurred in /home/…/filegdbtable.cpp at line 714" when a table file is damaged.
 */
const errorText = (e: unknown): string =>
  rawErrorText(e).replace(
    /Error occurred in \S*?([^/\s]+) at line (\d+)/g,
    (_, file: string, line: string) => `a damaged table file (${file} line ${line})`,
  );

const rawErrorText = (e: unknown): string =>
  Array.isArray(e)
    ? e.map(rawErrorText).join('; ') || 'no reason given'
    : e instanceof Error
      ? e.message
      : typeof e === 'object' && e
        ? typeof (e as { message?: unknown }).message === 'string'
          ? String((e as { message: string }).message)
          : JSON.stringify(e)
        : String(e);
