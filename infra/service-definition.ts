/**
 * Service definitions (.sd): 7-Zip archives ArcGIS writes to publish a service. 7z-wasm (7-Zip in
 * WebAssembly, no native build) unpacks them in memory (the file is bounded by SQLITE_MAX_BYTES);
 * one carrying a tile cache publishes as a tile package does, one carrying a file geodatabase as a
 * file geodatabase does, and anything else is refused naming what the archive holds.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  path = '/in.sd',
): Listing {
  lines.length = 0;
  try {
    sz.callMain(['l', '-slt', '-ba', '-bd', path]);
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

/** A file read by byte ranges: the archive's size and a reader of `length` bytes at `offset`. */
export interface RangeSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A whole archive in memory as a RangeSource. */
export const bytesSource = (bytes: Uint8Array): RangeSource => ({
  size: bytes.length,
  read: async (offset, length) => bytes.subarray(offset, offset + length),
});

/** The header regions read to list an archive: at most this much in all. */
export const MAX_LISTING_BYTES = 64 * 1024 ** 2;

/** A 7-Zip NUMBER (the first byte's leading one bits count the bytes that follow, little-endian). */
function readNumber(b: Uint8Array, at: { pos: number }): number {
  if (at.pos >= b.length) throw new RangeError('past the end');
  const first = b[at.pos++];
  let mask = 0x80;
  let value = 0;
  for (let i = 0; i < 8; i++) {
    if ((first & mask) === 0) return value + (first & (mask - 1)) * 2 ** (8 * i);
    if (at.pos >= b.length) throw new RangeError('past the end');
    value += b[at.pos++] * 2 ** (8 * i);
    mask >>= 1;
  }
  return value;
}

/**
 * Where an encoded (compressed) header's packed streams lie, from its PackInfo: 0x17, then 0x06
 * packPos numPackStreams [0x09 size...]. Offsets are from the end of the 32-byte signature header.
 */
function encodedHeaderStreams(header: Uint8Array): { offset: number; length: number } | undefined {
  const at = { pos: 1 };
  if (header[at.pos++] !== 0x06) return undefined;
  const packPos = readNumber(header, at);
  const count = readNumber(header, at);
  if (header[at.pos++] !== 0x09 || count > 64) return undefined;
  let length = 0;
  for (let i = 0; i < count; i++) length += readNumber(header, at);
  return { offset: 32 + packPos, length };
}

/**
 * The regions of an archive 7-Zip reads to list it: the signature header, the next header it points
 * at and, when that header is itself packed (kEncodedHeader), the streams it unpacks from.
 */
async function headerRegions(source: RangeSource): Promise<{ offset: number; bytes: Uint8Array }[]> {
  const start = await source.read(0, Math.min(32, source.size));
  if (!isSevenZip(start) || start.length < 32)
    throw unreadable('The file is not a service definition (no 7-Zip signature).');
  const view = new DataView(start.buffer, start.byteOffset, 32);
  const headerOffset = 32 + Number(view.getBigUint64(12, true));
  const headerSize = Number(view.getBigUint64(20, true));
  const damaged = (why: string) => unreadable(`The service definition cannot be read: ${why}.`);
  if (headerSize === 0) throw damaged('it holds no file');
  if (headerSize > MAX_LISTING_BYTES) throw damaged(`its header is larger than ${MAX_LISTING_BYTES} bytes`);
  if (headerOffset + headerSize > source.size) throw damaged('the file ends before its header');
  const header = await source.read(headerOffset, headerSize);
  const regions = [
    { offset: 0, bytes: start },
    { offset: headerOffset, bytes: header },
  ];
  if (header[0] === 0x17) {
    let packed: { offset: number; length: number } | undefined;
    try {
      packed = encodedHeaderStreams(header);
    } catch {
      packed = undefined;
    }
    if (!packed) throw damaged('its header cannot be decoded');
    if (packed.length > MAX_LISTING_BYTES)
      throw damaged(`its header is larger than ${MAX_LISTING_BYTES} bytes`);
    if (packed.offset + packed.length > source.size) throw damaged('the file ends before its header');
    regions.push({ offset: packed.offset, bytes: await source.read(packed.offset, packed.length) });
  }
  return regions;
}

/**
 * The paths of a 7-Zip archive's files, from its header alone: nothing is unpacked, and only the
 * header regions are read (a few KiB of a file of any size). They are written at their places in a
 * sparse file of the archive's size, which 7-Zip reads through the module's NODEFS mount.
 */
export async function sevenZipNames(source: RangeSource): Promise<string[]> {
  const regions = await headerRegions(source);
  const dir = await mkdtemp(join(tmpdir(), 'sd-list-'));
  try {
    const file = await open(join(dir, 'in.sd'), 'w');
    try {
      await file.truncate(source.size);
      for (const r of regions) await file.write(r.bytes, 0, r.bytes.length, r.offset);
    } finally {
      await file.close();
    }
    const messages: string[] = [];
    const lines: string[] = [];
    const sz = await SevenZip({
      print: (s: string) => lines.push(s),
      printErr: (s: string) => messages.push(s),
    });
    sz.FS.mkdir('/host');
    sz.FS.mount(sz.NODEFS, { root: dir }, '/host');
    let files: Listing['files'];
    try {
      files = listArchive(sz, lines, messages, '/host/in.sd').files;
    } finally {
      sz.FS.unmount('/host');
    }
    const errors = errorsOf(messages);
    if (errors.length > 0 || files.length === 0)
      throw unreadable(`The service definition cannot be read: ${errors.join(' ') || 'it holds no file'}.`);
    return files.map((f) => f.path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
