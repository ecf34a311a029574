/**
 * Service definitions (.sd): 7-Zip archives ArcGIS writes to publish a service. 7z-wasm (7-Zip in
 * WebAssembly, no native build) unpacks them in memory (the file is bounded by SQLITE_MAX_BYTES);
 * one carrying a tile cache publishes as a tile package does, one carrying a file geodatabase as a
 * file geodatabase does, and anything else is refused naming what the archive holds.
 */
import { createRequire } from 'node:module';
import type { SevenZipModuleFactory } from '7z-wasm';
import { badRequest } from '../lib/errors.js';
import {
  type ArchiveBudget,
  DEFAULT_ARCHIVE_BUDGET,
  inflatedLimit,
  overInflatedBudget,
} from '../lib/ingest/archive-budget.js';

// The package is a UMD bundle whose types describe an ES default export: required as CommonJS.
const SevenZip = createRequire(import.meta.url)('7z-wasm') as SevenZipModuleFactory;

const unreadable = (detail: string) => badRequest('Unable to read the file.', [detail]);

/** The 7-Zip signature: '7z' BC AF 27 1C. */
export const isSevenZip = (b: Uint8Array): boolean =>
  b.length > 6 &&
  b[0] === 0x37 &&
  b[1] === 0x7a &&
  b[2] === 0xbc &&
  b[3] === 0xaf &&
  b[4] === 0x27 &&
  b[5] === 0x1c;

interface Listing {
  files: { path: string; size: number }[];
  messages: string[];
}

/** The files 7-Zip lists in an archive (folders left out) with the sizes its header declares. */
function listArchive(
  sz: Awaited<ReturnType<SevenZipModuleFactory>>,
  lines: string[],
  messages: string[],
): Listing {
  lines.length = 0;
  try {
    sz.callMain(['l', '-slt', '-ba', '-bd', '/in.sd']);
  } catch (e) {
    messages.push(e instanceof Error ? e.message : String(e));
  }
  // Blocks of "Key = value" lines, one block per entry; folders carry the D attribute.
  const files: Listing['files'] = [];
  let entry: { path?: string; size?: number; folder?: boolean } = {};
  const flush = () => {
    if (entry.path !== undefined && !entry.folder) files.push({ path: entry.path, size: entry.size ?? 0 });
    entry = {};
  };
  for (const line of lines) {
    const m = /^([A-Za-z ]+?) = (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'Path') {
      flush();
      entry.path = m[2];
    } else if (m[1] === 'Size') entry.size = Number(m[2]) || 0;
    else if (m[1] === 'Attributes') entry.folder = /^D/.test(m[2]);
  }
  flush();
  return { files, messages };
}

async function openArchive(bytes: Uint8Array) {
  if (!isSevenZip(bytes)) throw unreadable('The file is not a service definition (no 7-Zip signature).');
  const messages: string[] = [];
  const lines: string[] = [];
  const sz = await SevenZip({
    print: (s: string) => lines.push(s),
    printErr: (s: string) => messages.push(s),
  });
  sz.FS.writeFile('/in.sd', bytes);
  return { sz, lines, messages };
}

const errorsOf = (messages: string[]) => messages.filter((m) => /error|cannot|unexpected|truncat/i.test(m));

/** The paths of a 7-Zip archive's files, from its header alone (nothing is unpacked). */
export async function sevenZipNames(bytes: Uint8Array): Promise<string[]> {
  const { sz, lines, messages } = await openArchive(bytes);
  const { files } = listArchive(sz, lines, messages);
  const errors = errorsOf(messages);
  if (errors.length > 0 || files.length === 0)
    throw unreadable(`The service definition cannot be read: ${errors.join(' ') || 'it holds no file'}.`);
  return files.map((f) => f.path);
}

/**
 * Every file of a 7-Zip archive by its path; a fresh module each time, so nothing stays in its heap.
 * The archive is listed first and refused when its files add up to more than the archive budget
 * allows (ARCHIVE_MAX_RATIO times its size, ARCHIVE_MAX_INFLATED_BYTES, ARCHIVE_MAX_ENTRIES): the
 * unpacked files live in JavaScript memory (the module's file system), and 7-Zip packs 64 MiB of
 * zeros into 10 KiB. 7-Zip unpacks no folder past the size its header declares for it.
 */
export async function sevenZipEntries(
  bytes: Uint8Array,
  budget: ArchiveBudget = DEFAULT_ARCHIVE_BUDGET,
): Promise<Record<string, Uint8Array>> {
  const { sz, lines, messages } = await openArchive(bytes);
  const { files } = listArchive(sz, lines, messages);
  if (files.length > budget.maxEntries) {
    throw unreadable(`The archive has more than ${budget.maxEntries} entries (ARCHIVE_MAX_ENTRIES).`);
  }
  const limit = inflatedLimit(bytes.length, budget);
  if (files.reduce((n, f) => n + f.size, 0) > limit) throw overInflatedBudget(limit, budget);
  sz.FS.mkdir('/out');
  try {
    sz.callMain(['x', '/in.sd', '-o/out', '-y', '-bd']);
  } catch (e) {
    messages.push(e instanceof Error ? e.message : String(e));
  }
  const out: Record<string, Uint8Array> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of sz.FS.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      if (sz.FS.isDir(sz.FS.stat(path).mode)) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = sz.FS.readFile(path);
    }
  };
  walk('/out', '');
  const errors = errorsOf(messages);
  if (errors.length > 0 || Object.keys(out).length === 0)
    throw unreadable(`The service definition cannot be unpacked: ${errors.join(' ') || 'it holds no file'}.`);
  return out;
}

export type ServiceDefinitionKind = 'tiles' | 'fileGeodatabase';

/** What the archive carries (its file paths): a tile cache (conf.xml or root.json with bundles), or a file geodatabase. */
export function serviceDefinitionKind(names: readonly string[]): ServiceDefinitionKind {
  const tiles =
    names.some((n) => /(^|\/)(conf\.xml|root\.json)$/i.test(n)) &&
    names.some((n) => /\.(bundle|pbf|png|jpg)$/i.test(n));
  if (tiles) return 'tiles';
  if (names.some((n) => /(^|\/)[^/]+\.gdb\/a0000000[1-9]\.gdbtable$/i.test(n))) return 'fileGeodatabase';
  const kinds = [
    ...new Set(names.map((n) => (n.includes('.') ? `.${n.split('.').pop()?.toLowerCase()}` : n))),
  ];
  throw badRequest('Unable to publish the file.', [
    `The service definition carries neither a tile cache nor a file geodatabase; it holds ${names.length} files (${kinds.slice(0, 12).join(', ')}).`,
  ]);
}
