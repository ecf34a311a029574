/** publishParameters of a tile publish: the service name, the levels to build and the storage format. */
import { badRequest } from '../../lib/errors.js';
import type { CacheStorage } from '../../lib/tiles/cache-definition.js';
import { levelForScale, MAX_LEVEL, WEB_MERCATOR_LODS } from '../../lib/tiles/web-mercator.js';

const SERVICE_NAME = /^[A-Za-z0-9_]{1,120}$/;
const invalid = (detail: string) => badRequest('Invalid publishParameters.', [detail]);

export interface TileParameters {
  name: string;
  description: string;
  copyrightText: string;
  storage: CacheStorage;
  levels?: string;
  minScale?: number;
  maxScale?: number;
}

export function parseTileParameters(raw: string | undefined): TileParameters {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(raw ?? '{}') as Record<string, unknown>;
  } catch {
    throw badRequest('Invalid or missing input parameters.', ["'publishParameters' is not valid JSON."]);
  }
  if (typeof p !== 'object' || p === null) throw invalid('publishParameters must be a JSON object.');
  const name = typeof p.name === 'string' ? p.name : '';
  if (!name) throw invalid("'name' is required.");
  if (!SERVICE_NAME.test(name))
    throw invalid(`Service name '${name}' may use only letters, digits and underscores.`);
  const format = String(p.storageFormat ?? p.cacheStorageFormat ?? 'compactV2').toLowerCase();
  const storage: CacheStorage = format.includes('exploded') ? 'exploded' : 'compactV2';
  const num = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : Number(v));
  return {
    name,
    description: typeof p.description === 'string' ? p.description : '',
    copyrightText: typeof p.copyrightText === 'string' ? p.copyrightText : '',
    storage,
    levels: typeof p.levels === 'string' || typeof p.levels === 'number' ? String(p.levels) : undefined,
    minScale: num(p.minScale),
    maxScale: num(p.maxScale),
  };
}

/**
 * The levels to build: `levels` as "3-12" or "3,4,5", else the LODs between minScale and maxScale,
 * else undefined (the build picks them from the data's extent and density).
 */
export function parseTileLevels(p: TileParameters): { minLevel: number; maxLevel: number } | undefined {
  if (p.levels !== undefined) {
    const values = p.levels.includes('-')
      ? p.levels.split('-').map(Number)
      : p.levels.split(',').map((v) => Number(v.trim()));
    if (values.some((v) => !Number.isInteger(v) || v < 0 || v > MAX_LEVEL))
      throw invalid(`levels '${p.levels}' must name levels 0–${MAX_LEVEL}.`);
    return { minLevel: Math.min(...values), maxLevel: Math.max(...values) };
  }
  if (p.minScale === undefined && p.maxScale === undefined) return undefined;
  const pick = (scale: number | undefined, fallback: number) => {
    if (scale === undefined || !Number.isFinite(scale) || scale <= 0) return fallback;
    const exact = levelForScale(scale);
    if (exact !== undefined) return exact;
    // Nearest LOD by scale ratio.
    let best = 0;
    for (const l of WEB_MERCATOR_LODS)
      if (Math.abs(Math.log(l.scale / scale)) < Math.abs(Math.log(WEB_MERCATOR_LODS[best].scale / scale)))
        best = l.level;
    return best;
  };
  const minLevel = pick(p.minScale, 0);
  const maxLevel = pick(p.maxScale, 16);
  if (maxLevel < minLevel) throw invalid('maxScale must be a larger scale (smaller number) than minScale.');
  return { minLevel, maxLevel };
}
