/**
 * Files uploaded in parts, as ArcGIS clients send large files: addItem (or update) with
 * `multipart=true` and `filename` starts the upload, `items/{id}/addPart?partNum=N` stores each part
 * (1..10000, any order, a part sent again replaces itself), `commit` joins parts 1..N into the item's
 * data in order (streamed from the object store into it, never held in memory) and `cancel` drops the
 * parts. The item's status says `partial` until the commit and `completed` after. The joined file is
 * held within the same limit as a single upload (UPLOAD_MAX_BYTES), counted as the parts arrive.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Context } from 'hono';
import {
  completeUpload,
  countUploadBytes,
  findUpload,
  removeUpload,
  startUpload,
} from '../../db/repositories/item-uploads.js';
import { updateItem } from '../../db/repositories/items.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { badRequest } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import type { RequestParams } from '../params.js';
import { tooLarge } from '../params.js';
import { sendJson } from '../render.js';
import { changeableItem } from './item-access.js';
import { contentTypeOf, itemPrefix, storeStream } from './item-data.js';
import { readItemProperties } from './item-params.js';

/** The most parts one upload may have (S3's and ArcGIS's bound). */
export const MAX_PARTS = 10_000;

const partsPrefix = (itemId: string) => `${itemPrefix(itemId)}parts/`;
const partKey = (itemId: string, n: number) => `${partsPrefix(itemId)}${String(n).padStart(5, '0')}`;

const invalid = (detail: string) => badRequest('Invalid or missing input parameters.', [detail]);

/**
 * The file name of an upload in parts that addItem or update asks to start (`multipart=true`), or
 * undefined for an ordinary request. Such a request carries no data of its own.
 */
export function multipartFilename(params: RequestParams): string | undefined {
  const multipart = params.get('multipart');
  if (multipart === undefined || multipart === '' || multipart.toLowerCase() === 'false') return undefined;
  if (multipart.toLowerCase() !== 'true')
    throw invalid(`'multipart' must be true or false, not '${multipart}'.`);
  const filename = (params.get('filename') ?? '').trim();
  if (!filename) throw invalid("'filename' is required when 'multipart' is true.");
  if (params.file('file') || params.get('text') !== undefined || params.get('dataUrl')) {
    throw invalid(
      "A multipart upload sends its file with addPart: 'file', 'text' and 'dataUrl' are not allowed here.",
    );
  }
  return filename;
}

/** Starts the item's upload in parts, dropping the parts of an earlier one that was not committed. */
export async function beginUpload(c: Context<AppEnv>, itemId: string, filename: string): Promise<void> {
  const { database, store, now } = c.get('deps');
  await store.removePrefix(partsPrefix(itemId));
  await startUpload(database.db, itemId, filename, now());
}

/** The caller's item with an upload in parts under way, or the error a client is told. */
async function partialUpload(c: Context<AppEnv>) {
  const { item } = await changeableItem(c);
  const upload = await findUpload(c.get('deps').database.db, item.id);
  if (upload?.status !== 'partial') {
    throw badRequest('The item has no multipart upload in progress.', [
      upload
        ? `The upload of '${upload.filename}' was committed already.`
        : 'Start one with addItem or update and multipart=true.',
    ]);
  }
  return { item, upload };
}

function partNumber(params: RequestParams): number {
  const raw = params.get('partNum') ?? '';
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PARTS) {
    throw invalid(`'partNum' must be an integer from 1 to ${MAX_PARTS}${raw ? `, not '${raw}'` : ''}.`);
  }
  return n;
}

export async function addPart(c: Context<AppEnv>) {
  const { item } = await partialUpload(c);
  const params = c.get('params');
  const n = partNumber(params);
  const file = params.file('file');
  if (!file) throw invalid("'file' is required: the part's bytes.");
  const { database, store, config } = c.get('deps');
  const key = partKey(item.id, n);
  const replaced = (await store.stat(key))?.size ?? 0;
  const limit = config.uploadMaxBytes;
  if (!(await countUploadBytes(database.db, item.id, file.size - replaced, limit))) {
    // Either the file grew past the limit or the upload ended (committed, cancelled) meanwhile.
    const upload = await findUpload(database.db, item.id);
    if (upload?.status === 'partial') throw tooLarge(limit);
    throw badRequest('The item has no multipart upload in progress.');
  }
  try {
    await store.put(key, createReadStream(file.path), file.size, 'application/octet-stream');
  } catch (e) {
    await countUploadBytes(database.db, item.id, replaced - file.size, Number.MAX_SAFE_INTEGER);
    throw e;
  }
  return sendJson(c, { success: true, id: item.id });
}

/** The stored parts of an upload, 1..N in order with their sizes; refused when one is missing. */
async function partsOf(store: ObjectStore, itemId: string): Promise<{ key: string; size: number }[]> {
  const prefix = partsPrefix(itemId);
  const numbers = (await store.list(prefix))
    .map((key) => Number(key.slice(prefix.length)))
    .filter((n) => Number.isInteger(n))
    .sort((a, b) => a - b);
  if (numbers.length === 0) throw invalid('No part was uploaded: send them with addPart first.');
  const missing = numbers.map((n, i) => (n === i + 1 ? 0 : i + 1)).find((n) => n > 0);
  if (missing !== undefined) {
    throw invalid(`Parts 1 to ${numbers.at(-1)} must all be uploaded: part ${missing} is missing.`);
  }
  const parts: { key: string; size: number }[] = [];
  for (const n of numbers) {
    const key = partKey(itemId, n);
    const stat = await store.stat(key);
    if (!stat) throw invalid(`Part ${n} went away during the commit; send it again.`);
    parts.push({ key, size: stat.size });
  }
  return parts;
}

export async function commit(c: Context<AppEnv>) {
  const { item, upload } = await partialUpload(c);
  const { database, store, now, config } = c.get('deps');
  const properties = readItemProperties(c.get('params'));
  if (properties.title === '' || properties.type === '') {
    throw invalid("'title' and 'type' must not be empty.");
  }
  const parts = await partsOf(store, item.id);
  const size = parts.reduce((total, p) => total + p.size, 0);
  if (size > config.uploadMaxBytes) throw tooLarge(config.uploadMaxBytes);
  const stored = await storeStream(
    store,
    item.id,
    Readable.from(joined(store, parts)),
    size,
    contentTypeOf(upload.filename, undefined),
  );
  await updateItem(database.db, item.id, {
    ...properties,
    ...stored,
    name: upload.filename,
    modified: now(),
  });
  await completeUpload(database.db, item.id);
  await store.removePrefix(partsPrefix(item.id));
  return sendJson(c, { success: true, id: item.id });
}

/** The parts' bytes one after another, each streamed from the object store. */
async function* joined(store: ObjectStore, parts: { key: string }[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield* (await store.getStream(part.key)) as AsyncIterable<Buffer>;
}

export async function cancel(c: Context<AppEnv>) {
  const { item } = await partialUpload(c);
  const { database, store } = c.get('deps');
  await removeUpload(database.db, item.id);
  await store.removePrefix(partsPrefix(item.id));
  return sendJson(c, { success: true, id: item.id });
}
