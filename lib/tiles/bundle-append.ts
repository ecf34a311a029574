/**
 * Updating a Compact V2 bundle in place without moving any tile it already holds: the new tiles are
 * appended as records after the old ones and only the index changes. A reader that fetched the old
 * index a moment ago still finds the old tiles at their old offsets (never a mix of old offsets and new
 * bytes), while a reader fetching the index afresh finds the new ones. The records of replaced tiles stay
 * behind as dead bytes until they outweigh the live ones: then the bundle is rewritten compactly instead
 * (`updateBundle`), and a reader holding the old index sees from a tile's size prefix that it moved.
 */
import { badRequest } from '../errors.js';
import {
  BUNDLE_FIXED_SIZE,
  BUNDLE_HEADER_SIZE,
  BUNDLE_TILES,
  BundleBuilder,
  decodeBundle,
  encodeBundle,
  encodeBundleHeader,
  parseBundleHeader,
  parseBundleIndex,
} from './compact-bundle.js';

const TWO_POW_32 = 2 ** 32;
const MAX_TILE_SIZE = 2 ** 24 - 1;
/** Offsets are 40-bit. */
const MAX_OFFSET = 2 ** 40 - 1;

export interface AppendResult {
  bytes: Uint8Array;
  /** Tiles the bundle holds afterwards, and their bytes (live records only). */
  tileCount: number;
  liveBytes: number;
}

/**
 * The bundle with `updates` applied (slot → tile; an empty tile removes the slot). Without an existing
 * bundle this is a plain fresh bundle.
 */
export function appendToBundle(
  existing: Uint8Array | undefined,
  updates: ReadonlyMap<number, Uint8Array>,
): AppendResult {
  if (!existing) {
    const builder = new BundleBuilder();
    for (const [slot, tile] of updates) builder.setSlot(slot, tile);
    const bytes = builder.toBytes();
    let liveBytes = 0;
    for (const t of updates.values()) liveBytes += t.length;
    return { bytes, tileCount: builder.tileCount, liveBytes };
  }
  const header = parseBundleHeader(existing);
  const index = parseBundleIndex(existing.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE));
  const sizes = Uint32Array.from(index.sizes);
  const offsets = Float64Array.from(index.offsets);
  let appended = 0;
  for (const [slot, tile] of updates) {
    if (!Number.isInteger(slot) || slot < 0 || slot >= BUNDLE_TILES)
      throw badRequest(`Bad bundle slot ${slot}.`);
    if (tile.length > MAX_TILE_SIZE)
      throw badRequest(`Tile of ${tile.length} bytes exceeds the 24-bit size.`);
    if (tile.length > 0) appended += 4 + tile.length;
  }
  const total = existing.length + appended;
  if (total > MAX_OFFSET) throw badRequest('Bundle would exceed the 40-bit offset range.');
  const out = new Uint8Array(total);
  out.set(existing, 0);
  const v = new DataView(out.buffer);
  let at = existing.length;
  let maxTileSize = header.maxTileSize;
  for (const [slot, tile] of [...updates].sort((a, b) => a[0] - b[0])) {
    if (tile.length === 0) {
      sizes[slot] = 0;
      offsets[slot] = 0;
      continue;
    }
    v.setUint32(at, tile.length, true);
    out.set(tile, at + 4);
    offsets[slot] = at + 4;
    sizes[slot] = tile.length;
    at += 4 + tile.length;
    if (tile.length > maxTileSize) maxTileSize = tile.length;
  }
  let tileCount = 0;
  let liveBytes = 0;
  for (let slot = 0; slot < BUNDLE_TILES; slot++) {
    const p = BUNDLE_HEADER_SIZE + slot * 8;
    const size = sizes[slot];
    const offset = size === 0 ? 0 : offsets[slot];
    v.setUint32(p, offset % TWO_POW_32, true);
    v.setUint32(p + 4, ((size << 8) | Math.floor(offset / TWO_POW_32)) >>> 0, true);
    if (size > 0) {
      tileCount++;
      liveBytes += size;
    }
  }
  out.set(encodeBundleHeader(maxTileSize, total), 0);
  return { bytes: out, tileCount, liveBytes };
}

/** When a refresh rewrites a bundle compactly instead of appending to it: both limits exceeded. */
export interface CompactionPolicy {
  /** Share of the object's bytes that dead records may take (the object stays under twice its live size). */
  maxDeadShare: number;
  /** Dead bytes always tolerated, so that a small bundle is not rewritten for a few replaced tiles. */
  minDeadBytes: number;
}

export const COMPACTION: CompactionPolicy = { maxDeadShare: 0.5, minDeadBytes: 256 * 1024 };

/** Bytes of a bundle object that no index entry reaches: records of replaced or removed tiles. */
export function deadBytes(objectBytes: number, tileCount: number, liveBytes: number): number {
  return objectBytes - BUNDLE_FIXED_SIZE - 4 * tileCount - liveBytes;
}

export function compactionDue(
  objectBytes: number,
  tileCount: number,
  liveBytes: number,
  policy: CompactionPolicy = COMPACTION,
): boolean {
  const dead = deadBytes(objectBytes, tileCount, liveBytes);
  return dead > policy.minDeadBytes && dead > policy.maxDeadShare * objectBytes;
}

export interface BundleUpdate extends AppendResult {
  /** True when the bundle was rewritten with its live tiles only (their offsets changed). */
  compacted: boolean;
}

/**
 * The bundle with `updates` applied: appended, so old tiles keep their offsets, unless that would leave
 * more dead bytes than `policy` allows; then every live tile is written again in slot order.
 */
export function updateBundle(
  existing: Uint8Array | undefined,
  updates: ReadonlyMap<number, Uint8Array>,
  policy: CompactionPolicy = COMPACTION,
): BundleUpdate {
  const appended = appendToBundle(existing, updates);
  if (!compactionDue(appended.bytes.length, appended.tileCount, appended.liveBytes, policy))
    return { ...appended, compacted: false };
  return { ...appended, bytes: encodeBundle(decodeBundle(appended.bytes)), compacted: true };
}
