/**
 * A feature table's extent in SQL. The aggregate `feature_extent` (migration 0015) gives the box around
 * the rows' boxes, one call a row; an outer select reads its corners (a box's [0] is its high corner,
 * [1] its low one). Against min and max of the four corner values (two subscripts each, a row): a
 * million points' count and extent in 113 ms against 225 ms (bench/README "Ingest: GeoPackage",
 * session 38). The corners are the rows' own doubles, so the bounds are the same to the bit.
 *
 * `SELECT ${EXTENT_CORNERS} FROM (SELECT ${EXTENT_OF_ROWS} FROM … WHERE …) AS "x"`
 */
export const EXTENT_OF_ROWS = 'feature_extent("bbox") AS "e"';

/** `xmin`, `ymin`, `xmax`, `ymax` of the extent box `e` (all null when no row had a box). */
export const EXTENT_CORNERS =
  '("e"[1])[0] AS "xmin", ("e"[1])[1] AS "ymin", ("e"[0])[0] AS "xmax", ("e"[0])[1] AS "ymax"';
