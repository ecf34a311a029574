/**
 * The data a publish or analyze call names: an existing item (itemid), an uploaded `file` part, or
 * the file's text in a `text` parameter. Publish copies it under the job's own key, so the job reads
 * the same bytes whatever later happens to the item.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Database } from '../../db/client.js';
import { mayReadItem } from '../../db/repositories/access.js';
import type { ItemRow } from '../../db/repositories/items.js';
import { findItem } from '../../db/repositories/items.js';
import type { UserRow } from '../../db/repositories/users.js';
import type { PublishFileType } from '../../db/schema/publish-request.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { copyObjectWithKept } from '../../infra/readers/sqlite-spool.js';
import { badRequest, forbidden, itemNotFound } from '../../lib/errors.js';
import type { RequestParams, StagedFile } from '../params.js';

export type SourceRef =
  | { kind: 'item'; item: ItemRow; key: string; size: number; name: string }
  | { kind: 'file'; path: string; size: number; name: string; staged?: StagedFile }
  | { kind: 'text'; text: string; size: number; name: string };

/** Item types whose data each file type reads. */
const ITEM_TYPES: Record<PublishFileType, string[]> = {
  csv: ['csv'],
  excel: ['microsoft excel'],
  geojson: ['geojson'],
  shapefile: ['shapefile'],
  sqlite: ['sqlite geodatabase', 'geopackage'],
  featureCollection: ['feature collection'],
  fileGeodatabase: ['file geodatabase'],
  serviceDefinition: ['service definition'],
};

export async function resolveSource(
  db: Database,
  params: RequestParams,
  user: UserRow,
  fileType: PublishFileType | null,
): Promise<SourceRef> {
  const itemId = params.get('itemid');
  if (itemId) {
    const item = await findItem(db, itemId);
    if (!item) throw itemNotFound();
    // A group-only (shared) item is readable by its groups' members only, as on every other route.
    if (!(await mayReadItem(db, item, user))) throw forbidden();
    if (fileType && !ITEM_TYPES[fileType].includes(item.type.toLowerCase())) {
      throw badRequest('Invalid or missing input parameters.', [
        `Item ${itemId} is a ${item.type} item, not ${fileType} data.`,
      ]);
    }
    if (!item.dataKey)
      throw badRequest('Unable to publish the item.', [`Item ${itemId} has no file to publish.`]);
    return { kind: 'item', item, key: item.dataKey, size: item.dataSize, name: item.name ?? item.title };
  }
  const file = params.file('file');
  if (file)
    return { kind: 'file', path: file.path, size: file.size, name: file.filename, staged: file.staged };
  const text = params.get('text');
  if (text !== undefined && text !== '')
    return { kind: 'text', text, size: Buffer.byteLength(text), name: 'text' };
  throw badRequest('Invalid or missing input parameters.', [
    "One of 'itemid', 'file' or 'text' is required.",
  ]);
}

/**
 * Files read whole in memory (file geodatabases, service definitions) are refused above
 * SQLITE_MAX_BYTES; GeoPackage and SQLite files are read page by page, bounded by the upload limit.
 */
export function checkSourceSize(fileType: PublishFileType, source: SourceRef, sqliteMaxBytes: number): void {
  const inMemory = ['fileGeodatabase', 'serviceDefinition'].includes(fileType);
  if (inMemory && source.size > sqliteMaxBytes)
    throw badRequest('Unable to publish the file.', [
      `The file is ${source.size} bytes; file geodatabases and service definitions are read in memory, up to SQLITE_MAX_BYTES (${sqliteMaxBytes}).`,
    ]);
}

/**
 * Stores the source under `key`: a server-side copy for items; an uploaded file staged under that very
 * key while it arrived is adopted as it is, one staged elsewhere is copied server-side.
 */
export async function storeSource(store: ObjectStore, source: SourceRef, key: string): Promise<void> {
  if (source.kind === 'item') {
    // The item's file kept when it was added in this process (a GeoPackage) goes over to the job's copy.
    await copyObjectWithKept(store, source.key, key);
  } else if (source.kind === 'file' && source.staged) {
    if (source.staged.key === key) source.staged.adopt();
    else await store.copy(source.staged.key, key);
  } else if (source.kind === 'file') {
    await store.put(key, createReadStream(source.path), source.size);
  } else {
    await store.put(key, Buffer.from(source.text, 'utf8'), source.size, 'text/plain; charset=utf-8');
  }
}

/** The first `length` bytes (or all of them), for analyze. */
export async function readSourceBytes(
  store: ObjectStore,
  source: SourceRef,
  length = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const n = Math.min(length, source.size);
  if (source.kind === 'text') return Buffer.from(source.text, 'utf8').subarray(0, n);
  if (source.kind === 'item') {
    if (n === 0) return Buffer.alloc(0);
    return n >= source.size ? store.getBuffer(source.key) : store.getRange(source.key, 0, n);
  }
  const handle = await open(source.path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** `length` bytes of the source from `offset` (fewer at its end), read without the rest of the file. */
export async function readSourceRange(
  store: ObjectStore,
  source: SourceRef,
  offset: number,
  length: number,
): Promise<Buffer> {
  const n = Math.max(0, Math.min(length, source.size - offset));
  if (n === 0) return Buffer.alloc(0);
  if (source.kind === 'text') return Buffer.from(source.text, 'utf8').subarray(offset, offset + n);
  if (source.kind === 'item') return store.getRange(source.key, offset, n);
  const handle = await open(source.path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, offset);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The source's bytes as a stream of chunks, for readers that need not hold the whole file. */
export async function* sourceChunks(store: ObjectStore, source: SourceRef): AsyncGenerator<Buffer> {
  if (source.kind === 'text') {
    yield Buffer.from(source.text, 'utf8');
    return;
  }
  const stream = source.kind === 'item' ? await store.getStream(source.key) : createReadStream(source.path);
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    stream.destroy();
  }
}

/** The file type an item or upload implies, when the request does not say. */
export function impliedFileType(source: SourceRef): string | undefined {
  if (source.kind === 'item') {
    const t = source.item.type.toLowerCase();
    return t === 'microsoft excel' ? 'excel' : t.replaceAll(' ', '');
  }
  const ext = source.name.toLowerCase().split('.').pop() ?? '';
  return {
    csv: 'csv',
    txt: 'csv',
    xls: 'excel',
    xlsx: 'excel',
    geojson: 'geojson',
    json: 'geojson',
    zip: 'shapefile',
    gpkg: 'sqlite',
    sqlite: 'sqlite',
    sqlite3: 'sqlite',
    db: 'sqlite',
    sd: 'serviceDefinition',
  }[ext];
}
