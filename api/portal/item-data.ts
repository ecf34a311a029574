/**
 * Item data in MinIO under one deterministic key per item: uploads are streamed from the request's
 * temporary file, never read into memory, and /data streams the object back.
 */
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { ItemRow } from '../../db/repositories/items.js';
import { itemDataKey, itemPrefix } from '../../infra/object-keys.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { createOutboundFetch } from '../../infra/outbound-fetch.js';
import { isSqliteFile, keepsUploads, keepUploadedCopy } from '../../infra/readers/sqlite-spool.js';
import { GeoError } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import type { UploadedFile } from '../params.js';
import { downloadHeaders } from '../stored-download.js';

export { itemPrefix };

const dataKey = itemDataKey;

const CONTENT_TYPES: Record<string, string> = {
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.zip': 'application/zip',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.xml': 'application/xml',
  '.sd': 'application/octet-stream',
  '.vtpk': 'application/octet-stream',
  '.gpkg': 'application/geopackage+sqlite3',
};

/** The sent content type when it says something, else one from the file name's extension. */
export function contentTypeOf(filename: string, sent: string | undefined): string {
  if (sent && sent !== 'application/octet-stream') return sent;
  return CONTENT_TYPES[extname(filename).toLowerCase()] ?? 'application/octet-stream';
}

export interface StoredData {
  dataKey: string;
  dataSize: number;
  dataContentType: string;
}

export async function storeUpload(
  store: ObjectStore,
  itemId: string,
  file: UploadedFile,
): Promise<StoredData> {
  const key = dataKey(itemId);
  const contentType = contentTypeOf(file.filename, file.mimeType);
  // A file staged under this item's key while it arrived (addItem, api/upload-routes.ts) is the object.
  if (file.staged?.key === key) file.staged.adopt();
  else await store.put(key, createReadStream(file.path), file.size, contentType);
  // A GeoPackage or SQLite file is kept for analyze and a publish of the item run by this process's
  // worker, which then read it without copying the object back out of MinIO.
  if (keepsUploads() && (await isSqliteFile(file.path))) await keepUploadedCopy(store, key, file.path);
  return { dataKey: key, dataSize: file.size, dataContentType: contentType };
}

/** `body` (`size` bytes) as the item's data. */
export async function storeStream(
  store: ObjectStore,
  itemId: string,
  body: Readable,
  size: number,
  contentType: string,
): Promise<StoredData> {
  const key = dataKey(itemId);
  await store.put(key, body, size, contentType);
  return { dataKey: key, dataSize: size, dataContentType: contentType };
}

/**
 * The file at `url` as the item's data: fetched only from hosts the administrator allowed
 * (OUTBOUND_ALLOWED_HOSTS) and at most OUTBOUND_MAX_MB, like every URL a client hands the server.
 */
export async function storeDownload(
  c: Context<AppEnv>,
  itemId: string,
  url: string,
  filename: string,
): Promise<StoredData> {
  const { config, store } = c.get('deps');
  const res = await createOutboundFetch(config.outbound)(url);
  if (!res.ok) {
    await res.body?.cancel();
    throw new GeoError({
      code: 400,
      message: 'The file could not be downloaded.',
      details: [`${url}: HTTP ${res.status}.`],
    });
  }
  const body = Buffer.from(await res.arrayBuffer());
  const contentType = contentTypeOf(
    filename,
    res.headers.get('content-type')?.split(';')[0]?.trim() || undefined,
  );
  const key = dataKey(itemId);
  await store.put(key, body, body.length, contentType);
  return { dataKey: key, dataSize: body.length, dataContentType: contentType };
}

export async function storeText(store: ObjectStore, itemId: string, text: string): Promise<StoredData> {
  const key = dataKey(itemId);
  const body = Buffer.from(text, 'utf8');
  const contentType = looksLikeJson(text) ? 'application/json' : 'text/plain; charset=utf-8';
  await store.put(key, body, body.length, contentType);
  return { dataKey: key, dataSize: body.length, dataContentType: contentType };
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The item's stored data as a web stream with its headers; empty when the item has none. */
export async function readItemData(
  store: ObjectStore,
  item: ItemRow,
): Promise<{ body: ReadableStream | string; headers: Record<string, string> }> {
  if (!item.dataKey) return { body: '', headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  const stream = await store.getStream(item.dataKey);
  // Item data is saved, never shown on the portal's origin (see stored-download.ts).
  const headers = downloadHeaders({
    contentType: item.dataContentType,
    filename: item.name,
    size: item.dataSize ?? undefined,
    inline: false,
  });
  return { body: Readable.toWeb(stream) as ReadableStream, headers };
}
