-- The extent of a feature table's boxes: the box around all of them, one bound_box call a row. It
-- replaces min/max over the boxes' corners (two subscripts and a comparison for each of four values a
-- row): a million points' count and extent took 113 ms against 225 ms (bench/README, session 38).
-- No combine function: a parallel plan of the old query was no faster on two cores.
CREATE AGGREGATE "feature_extent"(box) (SFUNC = bound_box, STYPE = box);
