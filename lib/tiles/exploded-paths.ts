import type { TileAddress } from './web-mercator.js';

/**
 * Exploded cache keys: `L05/R0000000c/C0000001a.png` below `_alllayers/`: level in two decimals,
 * row and column in 8-digit lower-case hex, extension from the cache's tile format.
 */
const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** File extension of a CacheTileFormat (PNG, PNG8, PNG24, PNG32 → png; JPEG → jpg). */
export function tileExtension(format: string): string {
  const f = format.toUpperCase();
  if (f.startsWith('PNG')) return 'png';
  if (f === 'JPEG' || f === 'JPG') return 'jpg';
  if (f === 'LERC') return 'lerc';
  if (f === 'PBF') return 'pbf';
  return 'png';
}

export function explodedTilePath({ level, row, col }: TileAddress, extension = 'png'): string {
  return `L${String(level).padStart(2, '0')}/R${hex8(row)}/C${hex8(col)}.${extension}`;
}

const EXPLODED_RE = /(?:^|\/)L(\d{2})\/R([0-9a-f]{8,})\/C([0-9a-f]{8,})\.([a-z0-9]+)$/i;

/** Parses an exploded tile path (with or without a prefix) back into its address and extension. */
export function parseExplodedTilePath(path: string): (TileAddress & { extension: string }) | undefined {
  const m = EXPLODED_RE.exec(path);
  if (!m) return undefined;
  return {
    level: Number(m[1]),
    row: Number.parseInt(m[2], 16),
    col: Number.parseInt(m[3], 16),
    extension: m[4].toLowerCase(),
  };
}
