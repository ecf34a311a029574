/**
 * Canonical tokens for words that addresses spell in several ways. Both the reference data and the
 * query go through the same table, so "Street", "St." and "Saint" all become "st": the comparison is
 * symmetric and no guess is needed about which meaning "St" had.
 */
const VARIANTS: Record<string, readonly string[]> = {
  st: ['street', 'str', 'saint', 'strasse', 'straße'],
  ste: ['sainte', 'suite'],
  ave: ['avenue', 'av', 'avn', 'aven'],
  rd: ['road'],
  blvd: ['boulevard', 'boul', 'bd'],
  dr: ['drive', 'drv'],
  ln: ['lane'],
  ct: ['court'],
  pl: ['place'],
  sq: ['square'],
  pkwy: ['parkway', 'pky'],
  hwy: ['highway'],
  ter: ['terrace'],
  cir: ['circle'],
  trl: ['trail'],
  way: ['wy'],
  mt: ['mount', 'mont'],
  ft: ['fort'],
  n: ['north', 'nord'],
  s: ['south', 'sud'],
  e: ['east', 'est'],
  w: ['west', 'ouest'],
  ne: ['northeast'],
  nw: ['northwest'],
  se: ['southeast'],
  sw: ['southwest'],
  apt: ['apartment', 'unit'],
};

const CANONICAL = new Map<string, string>();
for (const [canonical, variants] of Object.entries(VARIANTS)) {
  CANONICAL.set(canonical, canonical);
  for (const v of variants) CANONICAL.set(v, canonical);
}

/** The canonical spelling of one folded token (itself when it has no variants). */
export const canonicalToken = (token: string): string => CANONICAL.get(token) ?? token;

/** Tokens that name a unit within a building rather than part of a street name. */
export const UNIT_MARKERS = new Set(['apt', 'ste', '#', 'fl', 'floor', 'rm', 'room', 'bldg']);
