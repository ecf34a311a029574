import type { GeocodeMatch } from '../../lib/geocode/gazetteer-types.js';

/** Projects WGS84 (lon, lat) into the requested output spatial reference. */
export type PointProjector = (x: number, y: number) => [number, number];

/** Fields that hold coordinates and so follow outSR, paired x with y. */
const COORDINATE_PAIRS: [string, string][] = [
  ['X', 'Y'],
  ['DisplayX', 'DisplayY'],
  ['Xmin', 'Ymin'],
  ['Xmax', 'Ymax'],
];

/** The match's output fields with coordinates projected. */
export function projectedFields(
  match: GeocodeMatch,
  project: PointProjector,
): Record<string, string | number> {
  const fields: Record<string, string | number> = { ...match.fields, Score: match.score };
  for (const [xName, yName] of COORDINATE_PAIRS) {
    const [x, y] = project(Number(fields[xName]), Number(fields[yName]));
    fields[xName] = x;
    fields[yName] = y;
  }
  return fields;
}

/** Keeps the asked-for fields (names matched case-insensitively), or all of them for '*'. */
export function selectFields(
  fields: Record<string, string | number>,
  wanted: '*' | string[] | undefined,
  always: string[] = [],
): Record<string, string | number> {
  if (wanted === '*') return fields;
  const names = new Set([...(wanted ?? []), ...always].map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(fields).filter(([name]) => names.has(name.toLowerCase())));
}

/** One findAddressCandidates candidate in the wire shape. */
export function candidateJson(
  match: GeocodeMatch,
  project: PointProjector,
  wanted: '*' | string[] | undefined,
) {
  const [x, y] = project(match.lon, match.lat);
  const [xmin, ymin] = project(match.extent[0], match.extent[1]);
  const [xmax, ymax] = project(match.extent[2], match.extent[3]);
  return {
    address: match.matchAddr,
    location: { x, y },
    score: match.score,
    attributes: selectFields(projectedFields(match, project), wanted),
    extent: { xmin, ymin, xmax, ymax },
  };
}
