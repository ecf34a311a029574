/**
 * Copies one tile out of a rendered metatile (straight RGBA rows): tile (tileCol, tileRow) of a
 * metatile `metaWidth` pixels wide. The copy is contiguous, ready for isEmptyTile and PNG encoding.
 */
export function cropTile(
  meta: Uint8Array,
  metaWidth: number,
  tileCol: number,
  tileRow: number,
  tileSize = 256,
): Uint8Array {
  const out = new Uint8Array(tileSize * tileSize * 4);
  const rowBytes = tileSize * 4;
  const x0 = tileCol * tileSize;
  for (let y = 0; y < tileSize; y++) {
    const from = ((tileRow * tileSize + y) * metaWidth + x0) * 4;
    out.set(meta.subarray(from, from + rowBytes), y * rowBytes);
  }
  return out;
}

/** True when tile (tileCol, tileRow) of a metatile has a pixel that is not fully transparent. */
export function tilePainted(
  meta: Uint8Array,
  metaWidth: number,
  tileCol: number,
  tileRow: number,
  tileSize = 256,
): boolean {
  const x0 = tileCol * tileSize;
  for (let y = 0; y < tileSize; y++) {
    const from = ((tileRow * tileSize + y) * metaWidth + x0) * 4 + 3;
    const to = from + tileSize * 4;
    for (let i = from; i < to; i += 4) if (meta[i] !== 0) return true;
  }
  return false;
}
