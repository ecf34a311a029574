import { badRequest } from '../errors.js';
import { BUNDLE_DIM, BUNDLE_TILES } from './compact-bundle.js';

/**
 * Compact Cache V1 (ArcGIS 10.0–10.2, inside .tpk): each `.bundle` has a sibling `.bundlx` holding a
 * 16-byte header, 16384 five-byte little-endian offsets in column-major order, and a 16-byte footer.
 * An offset points at the tile's u32 size prefix in the `.bundle`; size 0 means no tile.
 */
export const BUNDLX_HEADER_SIZE = 16;
export const BUNDLX_SIZE = BUNDLX_HEADER_SIZE + BUNDLE_TILES * 5 + 16;

/** Position of a tile in a .bundlx (column-major, unlike V2). */
export const bundlxSlot = (row: number, col: number): number =>
  BUNDLE_DIM * (col % BUNDLE_DIM) + (row % BUNDLE_DIM);

/** Record offsets into the .bundle, by column-major slot. */
export function parseBundlx(bundlx: Uint8Array): Float64Array {
  if (bundlx.length < BUNDLX_SIZE - 16) throw badRequest('Bundle index (.bundlx) is truncated.');
  const offsets = new Float64Array(BUNDLE_TILES);
  for (let i = 0; i < BUNDLE_TILES; i++) {
    const p = BUNDLX_HEADER_SIZE + i * 5;
    offsets[i] =
      bundlx[p] +
      bundlx[p + 1] * 2 ** 8 +
      bundlx[p + 2] * 2 ** 16 +
      bundlx[p + 3] * 2 ** 24 +
      bundlx[p + 4] * 2 ** 32;
  }
  return offsets;
}

/** The bytes of one tile of a V1 bundle, or undefined when the slot is empty. */
export function readV1Tile(
  bundle: Uint8Array,
  offsets: Float64Array,
  row: number,
  col: number,
): Uint8Array | undefined {
  return recordAt(bundle, offsets[bundlxSlot(row, col)]);
}

/** Every tile of a V1 bundle as (row, col) within the bundle (0–127) and its bytes. */
export function* v1BundleTiles(
  bundle: Uint8Array,
  offsets: Float64Array,
): Generator<{ rowInBundle: number; colInBundle: number; bytes: Uint8Array }> {
  for (let slot = 0; slot < BUNDLE_TILES; slot++) {
    const bytes = recordAt(bundle, offsets[slot]);
    if (bytes) yield { rowInBundle: slot % BUNDLE_DIM, colInBundle: Math.floor(slot / BUNDLE_DIM), bytes };
  }
}

function recordAt(bundle: Uint8Array, offset: number): Uint8Array | undefined {
  if (offset + 4 > bundle.length) return undefined;
  const size = new DataView(bundle.buffer, bundle.byteOffset + offset, 4).getUint32(0, true);
  if (size === 0) return undefined;
  if (offset + 4 + size > bundle.length) throw badRequest('V1 bundle tile lies past the end of the file.');
  return bundle.subarray(offset + 4, offset + 4 + size);
}
