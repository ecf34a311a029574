import proj4 from 'proj4';
import type { SpatialReference } from '../geometry/types.js';
import { resolveSpatialReference } from './spatial-reference.js';

/**
 * Metres per coordinate unit of a projected spatial reference (1 for metres, 0.3048 for
 * international feet, 1200/3937 for US survey feet), or null for a geographic one, whose
 * coordinates are degrees. Read from proj4's parse of the definition (`+units`, `+to_meter`, WKT).
 */
export function metresPerUnit(sr: SpatialReference): number | null {
  const resolved = resolveSpatialReference(sr);
  if (resolved.geographic) return null;
  const projection = proj4.Proj(resolved.definition) as { to_meter?: number };
  return typeof projection.to_meter === 'number' && projection.to_meter > 0 ? projection.to_meter : 1;
}
