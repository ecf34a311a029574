import { badRequest } from '../errors.js';

/**
 * Esri Compact Cache V2 bundles: a 64-byte little-endian header, a row-major index of 128×128 u64
 * entries (tile offset in the low 40 bits, tile size in the high 24 bits), then tile records, each a
 * u32 size followed by the tile bytes. Index offsets point at the tile bytes, past the size prefix.
 */
export const BUNDLE_DIM = 128;
export const BUNDLE_TILES = BUNDLE_DIM * BUNDLE_DIM;
export const BUNDLE_HEADER_SIZE = 64;
export const BUNDLE_INDEX_SIZE = BUNDLE_TILES * 8;
/** Header plus index: where the first tile record may start. */
export const BUNDLE_FIXED_SIZE = BUNDLE_HEADER_SIZE + BUNDLE_INDEX_SIZE;
/** Inclusive byte range of the index, for one HTTP Range request per bundle. */
export const BUNDLE_INDEX_RANGE = { start: BUNDLE_HEADER_SIZE, end: BUNDLE_FIXED_SIZE - 1 } as const;

export const MAX_TILE_SIZE = 2 ** 24 - 1;
const TWO_POW_32 = 2 ** 32;

/** Position of a tile inside its bundle's index (row-major within the 128×128 block). */
export const tileIndexInBundle = (row: number, col: number): number =>
  BUNDLE_DIM * (row % BUNDLE_DIM) + (col % BUNDLE_DIM);

/** Top-left row and column of the bundle holding a tile. */
export function bundleOrigin(row: number, col: number): { row0: number; col0: number } {
  return { row0: row - (row % BUNDLE_DIM), col0: col - (col % BUNDLE_DIM) };
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');

/** `L05`: level folder name, two decimal digits. */
export const levelFolder = (level: number): string => `L${String(level).padStart(2, '0')}`;

/** `R0080C0100`: the bundle's base name (lower-case hex of its top-left tile, at least 4 digits). */
export function bundleName(row: number, col: number): string {
  const { row0, col0 } = bundleOrigin(row, col);
  return `R${hex4(row0)}C${hex4(col0)}`;
}

/** `L05/R0000C0080.bundle`: the bundle path below `_alllayers/` (or a package's `tile/`). */
export const bundlePath = (level: number, row: number, col: number): string =>
  `${levelFolder(level)}/${bundleName(row, col)}.bundle`;

const BUNDLE_PATH_RE = /(?:^|\/)L(\d{2})\/R([0-9a-f]{4,})C([0-9a-f]{4,})\.(bundle|bundlx)$/i;

/** Parses `…/L05/R0000C0080.bundle` (or .bundlx) back into its level and top-left tile. */
export function parseBundlePath(path: string): { level: number; row0: number; col0: number } | undefined {
  const m = BUNDLE_PATH_RE.exec(path);
  if (!m) return undefined;
  return { level: Number(m[1]), row0: Number.parseInt(m[2], 16), col0: Number.parseInt(m[3], 16) };
}

export interface BundleHeader {
  version: number;
  recordCount: number;
  maxTileSize: number;
  offsetByteCount: number;
  fileSize: number;
}

export function encodeBundleHeader(maxTileSize: number, fileSize: number): Uint8Array {
  const bytes = new Uint8Array(BUNDLE_HEADER_SIZE);
  const v = new DataView(bytes.buffer);
  v.setUint32(0, 3, true);
  v.setUint32(4, BUNDLE_TILES, true);
  v.setUint32(8, maxTileSize, true);
  v.setUint32(12, 5, true);
  v.setBigUint64(16, 0n, true);
  v.setBigUint64(24, BigInt(fileSize), true);
  v.setBigUint64(32, 40n, true);
  v.setUint32(40, 20 + BUNDLE_INDEX_SIZE, true);
  v.setUint32(44, 3, true);
  v.setUint32(48, 16, true);
  v.setUint32(52, BUNDLE_TILES, true);
  v.setUint32(56, 5, true);
  v.setUint32(60, BUNDLE_INDEX_SIZE, true);
  return bytes;
}

export function parseBundleHeader(bytes: Uint8Array): BundleHeader {
  if (bytes.length < BUNDLE_HEADER_SIZE) throw badRequest('Bundle header is truncated.');
  const v = view(bytes);
  const header = {
    version: v.getUint32(0, true),
    recordCount: v.getUint32(4, true),
    maxTileSize: v.getUint32(8, true),
    offsetByteCount: v.getUint32(12, true),
    fileSize: Number(v.getBigUint64(24, true)),
  };
  if (header.version !== 3 || header.recordCount !== BUNDLE_TILES || header.offsetByteCount !== 5) {
    throw badRequest('Not a Compact Cache V2 bundle.', [`version ${header.version}`]);
  }
  return header;
}

/** A decoded bundle index: byte offset and size per tile slot (size 0 = no tile). */
export interface BundleIndex {
  offsets: Float64Array;
  sizes: Uint32Array;
}

/** Decodes the 131072 index bytes (file bytes 64–131135). */
export function parseBundleIndex(indexBytes: Uint8Array): BundleIndex {
  if (indexBytes.length < BUNDLE_INDEX_SIZE) throw badRequest('Bundle index is truncated.');
  const v = view(indexBytes);
  const offsets = new Float64Array(BUNDLE_TILES);
  const sizes = new Uint32Array(BUNDLE_TILES);
  for (let i = 0; i < BUNDLE_TILES; i++) {
    const lo = v.getUint32(i * 8, true);
    const hi = v.getUint32(i * 8 + 4, true);
    // 40-bit offset = lo + low byte of hi · 2^32; 24-bit size = upper three bytes of hi.
    offsets[i] = lo + (hi & 0xff) * TWO_POW_32;
    sizes[i] = hi >>> 8;
  }
  return { offsets, sizes };
}

/** Where a tile's bytes sit in the bundle file, or undefined when the bundle has no such tile. */
export function tileEntry(
  index: BundleIndex,
  row: number,
  col: number,
): { offset: number; size: number } | undefined {
  const i = tileIndexInBundle(row, col);
  const size = index.sizes[i];
  return size === 0 ? undefined : { offset: index.offsets[i], size };
}

/**
 * The bytes to fetch for a tile: its record, size prefix included, so that one range request both
 * reads the tile and checks it. Undefined for an entry that cannot point past a prefix.
 */
export function tileRecordRange(entry: {
  offset: number;
  size: number;
}): { offset: number; length: number } | undefined {
  if (entry.offset < 4) return undefined;
  return { offset: entry.offset - 4, length: entry.size + 4 };
}

/**
 * The tile inside a record fetched by `tileRecordRange`, or undefined when the record is not the one the
 * index describes: a short read, or a size prefix other than the index's size. That happens when the
 * bundle was rewritten (compacted or rebuilt) after the index was read.
 */
export function tileOfRecord(record: Uint8Array, size: number): Uint8Array | undefined {
  if (record.length !== size + 4 || view(record).getUint32(0, true) !== size) return undefined;
  return record.subarray(4);
}

/** Reads one tile out of a whole bundle held in memory. */
export function readBundleTile(bundle: Uint8Array, row: number, col: number): Uint8Array | undefined {
  const entry = tileEntry(parseBundleIndex(bundle.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE)), row, col);
  if (!entry) return undefined;
  if (entry.offset + entry.size > bundle.length)
    throw badRequest('Bundle tile lies past the end of the file.');
  return bundle.subarray(entry.offset, entry.offset + entry.size);
}

/** All tiles of a bundle, keyed by their index slot (views into `bundle`, not copies). */
export function decodeBundle(bundle: Uint8Array): Map<number, Uint8Array> {
  parseBundleHeader(bundle);
  const index = parseBundleIndex(bundle.subarray(BUNDLE_HEADER_SIZE, BUNDLE_FIXED_SIZE));
  const tiles = new Map<number, Uint8Array>();
  for (let i = 0; i < BUNDLE_TILES; i++) {
    const size = index.sizes[i];
    if (size === 0) continue;
    const offset = index.offsets[i];
    if (offset + size > bundle.length) throw badRequest('Bundle tile lies past the end of the file.');
    tiles.set(i, bundle.subarray(offset, offset + size));
  }
  return tiles;
}

/** Encodes a whole bundle from tiles keyed by index slot (see tileIndexInBundle). */
export function encodeBundle(tiles: ReadonlyMap<number, Uint8Array>): Uint8Array {
  const builder = new BundleBuilder();
  for (const [slot, bytes] of [...tiles].sort((a, b) => a[0] - b[0])) builder.setSlot(slot, bytes);
  return builder.toBytes();
}

/**
 * Builds a bundle tile by tile without copying tile bytes until the end. `finish()` returns the fixed
 * part and the record chunks separately so a writer can stream them in order with a known total size.
 * Setting a slot twice keeps the last tile.
 */
export class BundleBuilder {
  private readonly slots = new Map<number, Uint8Array>();

  get tileCount(): number {
    return this.slots.size;
  }

  /** Total size of the bundle file as it would be written now. */
  get byteLength(): number {
    let n = BUNDLE_FIXED_SIZE;
    for (const t of this.slots.values()) n += 4 + t.length;
    return n;
  }

  add(row: number, col: number, bytes: Uint8Array): this {
    return this.setSlot(tileIndexInBundle(row, col), bytes);
  }

  setSlot(slot: number, bytes: Uint8Array): this {
    if (!Number.isInteger(slot) || slot < 0 || slot >= BUNDLE_TILES)
      throw badRequest(`Bad bundle slot ${slot}.`);
    if (bytes.length > MAX_TILE_SIZE)
      throw badRequest(`Tile of ${bytes.length} bytes exceeds the 24-bit size.`);
    if (bytes.length === 0) this.slots.delete(slot);
    else this.slots.set(slot, bytes);
    return this;
  }

  finish(): { head: Uint8Array; records: Uint8Array[]; byteLength: number } {
    const head = new Uint8Array(BUNDLE_FIXED_SIZE);
    const index = new DataView(head.buffer, BUNDLE_HEADER_SIZE);
    const records: Uint8Array[] = [];
    let offset = BUNDLE_FIXED_SIZE;
    let maxTileSize = 0;
    const ordered = [...this.slots].sort((a, b) => a[0] - b[0]);
    for (const [slot, bytes] of ordered) {
      const prefix = new Uint8Array(4);
      new DataView(prefix.buffer).setUint32(0, bytes.length, true);
      records.push(prefix, bytes);
      const tileOffset = offset + 4;
      index.setUint32(slot * 8, tileOffset % TWO_POW_32, true);
      index.setUint32(slot * 8 + 4, ((bytes.length << 8) | Math.floor(tileOffset / TWO_POW_32)) >>> 0, true);
      offset = tileOffset + bytes.length;
      if (bytes.length > maxTileSize) maxTileSize = bytes.length;
    }
    head.set(encodeBundleHeader(maxTileSize, offset), 0);
    return { head, records, byteLength: offset };
  }

  toBytes(): Uint8Array {
    const { head, records, byteLength } = this.finish();
    const out = new Uint8Array(byteLength);
    out.set(head, 0);
    let at = head.length;
    for (const r of records) {
      out.set(r, at);
      at += r.length;
    }
    return out;
  }
}

/** Replaces or adds tiles in an existing bundle (an empty tile removes the slot). */
export function mergeBundle(
  existing: Uint8Array | undefined,
  updates: ReadonlyMap<number, Uint8Array>,
): Uint8Array {
  const builder = new BundleBuilder();
  if (existing) for (const [slot, bytes] of decodeBundle(existing)) builder.setSlot(slot, bytes);
  for (const [slot, bytes] of updates) builder.setSlot(slot, bytes);
  return builder.toBytes();
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
