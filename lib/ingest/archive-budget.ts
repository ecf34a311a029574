/**
 * Zip archives read under a budget: at most `maxEntries` entries (checked against the central directory
 * before anything is inflated), and the bytes actually inflated, counted as each entry streams out of
 * zlib, at most `maxRatio` times the archive's size (small archives may always reach MIN_RATIO_ALLOWANCE)
 * and never more than `maxBytes`. Declared sizes are never trusted, and an entry that inflates past the
 * size it declares is refused too. Entry names that could reach outside a folder (absolute paths,
 * drive letters, `..` segments, with `\` read as `/`) refuse the whole archive.
 */
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { badRequest, type GeoError, isGeoError } from '../errors.js';

export interface ArchiveBudget {
  maxEntries: number;
  /** Inflated bytes allowed per byte of the archive. */
  maxRatio: number;
  /** Absolute ceiling of inflated bytes, whatever the archive's size. */
  maxBytes: number;
}

export const DEFAULT_ARCHIVE_BUDGET: ArchiveBudget = {
  maxEntries: 100_000,
  maxRatio: 100,
  maxBytes: 2 * 1024 ** 3,
};

/** What any archive may inflate to under the ratio, so tiny highly compressible files still open. */
export const MIN_RATIO_ALLOWANCE = 16 * 1024 ** 2;

const INFLATE_CHUNK = 1024 * 1024;

const refused = (detail: string): GeoError => badRequest('Unable to read the archive.', [detail]);

/** The inflated bytes an archive of `compressedSize` bytes may produce. */
export const inflatedLimit = (compressedSize: number, budget: ArchiveBudget): number =>
  Math.min(budget.maxBytes, Math.max(compressedSize * budget.maxRatio, MIN_RATIO_ALLOWANCE));

/** The refusal of an archive that inflates past `limit` (inflatedLimit), naming the setting it passed. */
export const overInflatedBudget = (limit: number, budget: ArchiveBudget): GeoError =>
  limit === budget.maxBytes
    ? refused(`The archive inflates to more than ${budget.maxBytes} bytes (ARCHIVE_MAX_INFLATED_BYTES).`)
    : refused(
        `The archive inflates to more than ${budget.maxRatio} times its compressed size (ARCHIVE_MAX_RATIO).`,
      );

/** Why an entry name is refused, or null when it stays inside the archive's folder. */
export function unsafeEntryName(name: string): string | null {
  if (name.includes('\0')) return 'contains a NUL character';
  if (/^[\\/]/.test(name) || /^[A-Za-z]:/.test(name)) return 'is an absolute path';
  if (name.split(/[\\/]/).some((part) => part === '..')) return "has a '..' segment";
  return null;
}

/** yauzl's own name checks, said the way unsafeEntryName says them. */
function describeYauzlError(e: Error): GeoError {
  const m = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/s.exec(e.message);
  if (m) {
    const why = unsafeEntryName(m[2]) ?? 'is not a safe file name';
    return refused(`The entry name ${JSON.stringify(m[2].slice(0, 200))} ${why}.`);
  }
  return refused(`The file is not a readable zip archive: ${e.message}`);
}

/**
 * The kept entries of a whole archive in memory, read under the budget. `keep` selects the entries
 * whose bytes are inflated and returned; the others are neither inflated nor counted.
 */
export function unzipWithBudget(
  bytes: Uint8Array,
  budget: ArchiveBudget,
  keep: (name: string) => boolean = () => true,
): Promise<Map<string, Uint8Array>> {
  return readArchive(bytes, budget, keep, true);
}

/**
 * Inflates every entry under the budget without holding any, before a reader that opens the zip
 * itself (SheetJS) is handed it; resolves to the inflated size.
 */
export async function measureArchive(bytes: Uint8Array, budget: ArchiveBudget): Promise<number> {
  let total = 0;
  await readArchive(
    bytes,
    budget,
    () => true,
    false,
    (n) => {
      total += n;
    },
  );
  return total;
}

async function readArchive(
  bytes: Uint8Array,
  budget: ArchiveBudget,
  keep: (name: string) => boolean,
  hold: boolean,
  counted: (n: number) => void = () => {},
): Promise<Map<string, Uint8Array>> {
  if (bytes.length === 0) throw refused('The file is empty.');
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true });
  } catch (e) {
    throw describeYauzlError(e as Error);
  }
  if (zip.entryCount > budget.maxEntries) {
    zip.close();
    throw refused(`The archive has more than ${budget.maxEntries} entries (ARCHIVE_MAX_ENTRIES).`);
  }
  const limit = inflatedLimit(bytes.length, budget);
  const overBudget = () => overInflatedBudget(limit, budget);
  const out = new Map<string, Uint8Array>();
  let inflated = 0;

  const readEntry = async (entry: yauzl.Entry): Promise<void> => {
    const why = unsafeEntryName(entry.fileName);
    if (why) throw refused(`The entry name ${JSON.stringify(entry.fileName.slice(0, 200))} ${why}.`);
    if (entry.fileName.endsWith('/') || !keep(entry.fileName)) return;
    if (hold && out.has(entry.fileName))
      throw refused(`The entry ${JSON.stringify(entry.fileName)} appears twice.`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
      throw refused(`The entry ${JSON.stringify(entry.fileName)} uses an unsupported compression method.`);
    const raw: Readable = await zip.openReadStreamPromise(
      entry,
      entry.compressionMethod === 8 ? { decompress: false } : {},
    );
    // Large output chunks: zlib's default 16 KiB makes inflating a bomb ~30 times slower.
    const stream =
      entry.compressionMethod === 8 ? raw.pipe(createInflateRaw({ chunkSize: INFLATE_CHUNK })) : raw;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        size += chunk.length;
        if (inflated > limit) throw overBudget();
        if (size > entry.uncompressedSize)
          throw refused(
            `The entry ${JSON.stringify(entry.fileName)} inflates to more bytes than it declares.`,
          );
        if (hold) chunks.push(chunk);
      }
    } catch (e) {
      throw isGeoError(e)
        ? e
        : refused(`The entry ${JSON.stringify(entry.fileName)} is damaged: ${(e as Error).message}`);
    } finally {
      raw.destroy();
      stream.destroy();
    }
    if (size !== entry.uncompressedSize)
      throw refused(`The entry ${JSON.stringify(entry.fileName)} is shorter than it declares (truncated).`);
    counted(size);
    if (hold) out.set(entry.fileName, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  };

  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      zip.close();
      reject(isGeoError(e) ? e : describeYauzlError(e instanceof Error ? e : new Error(String(e))));
    };
    zip.on('error', fail);
    zip.on('entry', (entry: yauzl.Entry) => {
      readEntry(entry).then(() => zip.readEntry(), fail);
    });
    zip.on('end', () => {
      if (settled) return;
      settled = true;
      zip.close();
      resolve(out);
    });
    zip.readEntry();
  });
}
