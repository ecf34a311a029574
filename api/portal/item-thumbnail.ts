/**
 * Item thumbnails: addItem and update take a `thumbnail` file part or a `thumbnailUrl` (fetched only from
 * hosts the administrator allowed, OUTBOUND_ALLOWED_HOSTS, as every URL a client gives the server), check
 * that it is a PNG, JPEG, GIF or WebP image of reasonable size, and keep it in the object store under the
 * item's info; the item's `thumbnail` names it and `content/items/{id}/info/thumbnail/{name}` serves it to
 * whoever may read the item. Anything else (SVG, HTML, a truncated image) is refused with a 400, so what
 * the route serves is always an image in the type it says.
 */
import { readFile } from 'node:fs/promises';
import type { Context } from 'hono';
import sharp, { type Metadata } from 'sharp';
import type { ItemRow } from '../../db/repositories/items.js';
import { createOutboundFetch } from '../../infra/outbound-fetch.js';
import { badRequest, GeoError } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { itemPrefix } from './item-data.js';

/** The largest thumbnail kept, in bytes and in pixels a side. */
export const MAX_THUMBNAIL_BYTES = 5 * 1024 * 1024;
const MAX_THUMBNAIL_SIDE = 8192;

const FORMATS: Record<string, { ext: string; type: string }> = {
  png: { ext: 'png', type: 'image/png' },
  jpeg: { ext: 'jpg', type: 'image/jpeg' },
  gif: { ext: 'gif', type: 'image/gif' },
  webp: { ext: 'webp', type: 'image/webp' },
};
const TYPES_BY_EXT = new Map(Object.values(FORMATS).map((f) => [f.ext, f.type]));

const invalid = (detail: string) => badRequest('Invalid or missing input parameters.', [detail]);

/** A thumbnail the request sends (file or URL), checked; undefined when it sends none. */
export async function readThumbnail(c: Context<AppEnv>): Promise<{ bytes: Buffer; ext: string } | undefined> {
  const params = c.get('params');
  const file = params.file('thumbnail');
  const url = params.get('thumbnailUrl')?.trim();
  if (file && url) throw invalid("Send either 'thumbnail' or 'thumbnailUrl', not both.");
  let bytes: Buffer;
  if (file) {
    if (file.size > MAX_THUMBNAIL_BYTES) throw tooBig();
    bytes = await readFile(file.path);
  } else if (url) {
    bytes = await fetchThumbnail(c, url);
  } else return undefined;
  return { bytes, ext: await imageExt(bytes) };
}

const tooBig = () => invalid(`The thumbnail must be at most ${MAX_THUMBNAIL_BYTES} bytes.`);

async function fetchThumbnail(c: Context<AppEnv>, url: string): Promise<Buffer> {
  const policy = c.get('deps').config.outbound;
  const fetched = createOutboundFetch({
    ...policy,
    maxResponseBytes: Math.min(policy.maxResponseBytes, MAX_THUMBNAIL_BYTES + 1),
  });
  const res = await fetched(url);
  if (!res.ok) {
    await res.body?.cancel();
    throw new GeoError({
      code: 400,
      message: 'The thumbnail could not be read.',
      details: [`${url}: HTTP ${res.status}.`],
    });
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_THUMBNAIL_BYTES) throw tooBig();
  return bytes;
}

/** The image's file extension by what its bytes are (not what it is called); refuses anything else. */
async function imageExt(bytes: Buffer): Promise<string> {
  const refused = () => invalid('The thumbnail must be a PNG, JPEG, GIF or WebP image.');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_THUMBNAIL_SIDE * MAX_THUMBNAIL_SIDE }).metadata();
  } catch {
    throw refused();
  }
  const format = meta.format ? FORMATS[meta.format] : undefined;
  if (!format) throw refused();
  if ((meta.width ?? 0) > MAX_THUMBNAIL_SIDE || (meta.height ?? 0) > MAX_THUMBNAIL_SIDE) {
    throw invalid(`The thumbnail must be at most ${MAX_THUMBNAIL_SIDE} pixels a side.`);
  }
  // The whole image must decode, not just its header.
  try {
    await sharp(bytes, { limitInputPixels: MAX_THUMBNAIL_SIDE * MAX_THUMBNAIL_SIDE, failOn: 'truncated' })
      .raw()
      .toBuffer();
  } catch {
    throw refused();
  }
  return format.ext;
}

const thumbnailKey = (itemId: string, name: string) => `${itemPrefix(itemId)}info/${name}`;

/** Stores the item's thumbnail, replacing the one before; the item's `thumbnail` value to save. */
export async function storeThumbnail(
  c: Context<AppEnv>,
  item: Pick<ItemRow, 'id' | 'thumbnail'>,
  thumbnail: { bytes: Buffer; ext: string },
): Promise<string> {
  const { store } = c.get('deps');
  const name = `thumbnail/thumbnail.${thumbnail.ext}`;
  await store.put(
    thumbnailKey(item.id, name),
    thumbnail.bytes,
    thumbnail.bytes.length,
    TYPES_BY_EXT.get(thumbnail.ext),
  );
  if (item.thumbnail && item.thumbnail !== name) await store.remove(thumbnailKey(item.id, item.thumbnail));
  return name;
}

/** The thumbnail's bytes and headers, when `name` is the item's thumbnail. */
export async function thumbnailResponse(c: Context<AppEnv>, item: ItemRow, name: string): Promise<Response> {
  const notFound = new GeoError({ code: 404, message: 'Thumbnail not found.', details: [] });
  if (!item.thumbnail || item.thumbnail !== `thumbnail/${name}`) throw notFound;
  const type = TYPES_BY_EXT.get(name.slice(name.lastIndexOf('.') + 1));
  if (!type) throw notFound;
  const bytes = await c.get('deps').store.getBuffer(thumbnailKey(item.id, item.thumbnail));
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': type,
      'Content-Length': String(bytes.length),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': item.access === 'public' ? 'public, max-age=60' : 'private, max-age=60',
    },
  });
}
