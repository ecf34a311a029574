/**
 * A lean PNG encoder for map tiles: 8-bit straight RGBA (colour type 6), every row unfiltered, the
 * image data deflated by Node's zlib on libuv's threads. Map tiles are mostly transparent with a few
 * symbols; on them unfiltered rows at zlib level 3 took about half the CPU of sharp's PNG writer at
 * the same level (1.0–1.2 against 1.9–2.2 ms per 256×256 tile, bench/README "Tiles") for files about
 * 15% larger. PNG is lossless, so the pixels are the same whichever writer made them.
 *
 * The scanlines can be taken straight out of a larger image (a metatile), so a tile is not copied out
 * of its metatile before it is encoded.
 */
import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

/** zlib's fast levels (1–3) all but tie on tiles; 3 gives the smallest of them (memLevel 9 gave no gain). */
export const TILE_ZLIB_LEVEL = 3;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The PNG scanlines (a filter-type byte of 0, then the row's RGBA bytes) of the `width`×`height` block
 * whose top-left pixel is (x0, y0) in an RGBA image `imageWidth` pixels wide.
 */
function rgbaScanlines(
  image: Uint8Array,
  imageWidth: number,
  x0: number,
  y0: number,
  width: number,
  height: number,
): Buffer {
  const rowBytes = width * 4;
  const out = scanlineBuffer((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (rowBytes + 1);
    out[at] = 0;
    const from = ((y0 + y) * imageWidth + x0) * 4;
    out.set(image.subarray(from, from + rowBytes), at + 1);
  }
  return out;
}

/** A PNG of a `width`×`height` straight-RGBA block of `image` (rows top to bottom), from (x0, y0). */
export async function encodeRgbaPng(
  image: Uint8Array,
  imageWidth: number,
  x0: number,
  y0: number,
  width: number,
  height: number,
  level = TILE_ZLIB_LEVEL,
): Promise<Buffer> {
  const rows = rgbaScanlines(image, imageWidth, x0, y0, width, height);
  try {
    return pngFile(width, height, await deflateAsync(rows, { level }));
  } finally {
    release(rows);
  }
}

/**
 * Scanline buffers of finished encodes, kept for the next ones (a tile's are 257 KiB: made new for each
 * of thousands of tiles they were much of the garbage a cache build left).
 */
const spareRows: Buffer[] = [];
const MAX_SPARE_ROWS = 16;

function scanlineBuffer(length: number): Buffer {
  const i = spareRows.findIndex((b) => b.length === length);
  return i >= 0 ? (spareRows.splice(i, 1)[0] as Buffer) : Buffer.allocUnsafe(length);
}

function release(rows: Buffer) {
  if (spareRows.length < MAX_SPARE_ROWS) spareRows.push(rows);
}

/** Signature, IHDR (8-bit RGBA, no interlace), one IDAT and IEND around deflated scanlines. */
function pngFile(width: number, height: number, idat: Buffer): Buffer {
  const out = Buffer.allocUnsafe(SIGNATURE.length + 25 + 12 + idat.length + 12);
  SIGNATURE.copy(out, 0);
  let at = SIGNATURE.length;
  const header = Buffer.allocUnsafe(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering (each row names its filter)
  header[12] = 0; // no interlace
  at = writeChunk(out, at, 'IHDR', header);
  at = writeChunk(out, at, 'IDAT', idat);
  writeChunk(out, at, 'IEND', Buffer.alloc(0));
  return out;
}

function writeChunk(out: Buffer, at: number, type: string, data: Buffer): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'latin1');
  data.copy(out, at + 8);
  const crc = crc32(data, crc32(out.subarray(at + 4, at + 8)));
  out.writeUInt32BE(crc, at + 8 + data.length);
  return at + 12 + data.length;
}
