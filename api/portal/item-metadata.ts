/**
 * Item metadata: addItem and update take a `metadata` file part (an XML document, as ArcGIS keeps an
 * item's ISO or FGDC metadata), kept under the item's info in the object store and served at
 * `content/items/{id}/info/metadata/metadata.xml` to whoever may read the item, as a download (XML from
 * users is never rendered on the portal's origin, stored-download.ts).
 */
import { readFile } from 'node:fs/promises';
import type { Context } from 'hono';
import type { ItemRow } from '../../db/repositories/items.js';
import { badRequest, GeoError } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { downloadHeaders } from '../stored-download.js';
import { itemPrefix } from './item-data.js';

/** The largest metadata document kept. */
export const MAX_METADATA_BYTES = 5 * 1024 * 1024;

const metadataKey = (itemId: string) => `${itemPrefix(itemId)}info/metadata/metadata.xml`;

/** The metadata document the request sends, checked to be XML text; undefined when it sends none. */
export async function readMetadata(c: Context<AppEnv>): Promise<Buffer | undefined> {
  const file = c.get('params').file('metadata');
  if (!file) return undefined;
  const invalid = (detail: string) => badRequest('Invalid or missing input parameters.', [detail]);
  if (file.size > MAX_METADATA_BYTES)
    throw invalid(`'metadata' must be at most ${MAX_METADATA_BYTES} bytes.`);
  const bytes = await readFile(file.path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid("'metadata' must be an XML document in UTF-8.");
  }
  if (
    !text
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('<')
  ) {
    throw invalid("'metadata' must be an XML document in UTF-8.");
  }
  return bytes;
}

export async function storeMetadata(c: Context<AppEnv>, itemId: string, bytes: Buffer): Promise<void> {
  await c.get('deps').store.put(metadataKey(itemId), bytes, bytes.length, 'application/xml');
}

/** The item's metadata document, as a download. */
export async function metadataResponse(c: Context<AppEnv>, item: ItemRow): Promise<Response> {
  const { store } = c.get('deps');
  const key = metadataKey(item.id);
  const stat = await store.stat(key);
  if (!stat) throw new GeoError({ code: 404, message: 'The item has no metadata.', details: [] });
  const bytes = await store.getBuffer(key);
  const headers = downloadHeaders({
    contentType: 'application/xml',
    filename: 'metadata.xml',
    size: bytes.length,
    inline: false,
  });
  return new Response(new Uint8Array(bytes), { headers });
}
