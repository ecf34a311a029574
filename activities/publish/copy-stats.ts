/**
 * What a load puts in its table: the rows, the box around their boxes, and the longest value (in
 * bytes) of the text columns a GeoPackage or SQLite file leaves without a declared width. A load adds
 * up its committed batches' figures, so finishLayer needs no scan of the loaded table for the layer's
 * count, extent and widths (the scan of a million points took about 0.16 s after the last index, with
 * nothing else left to run beside it).
 *
 * The loading threads take the figures their encoder kept as it wrote the rows (row-encoder.ts:
 * `bounds`, and RecordWriter.take's widths): reading a batch's data again for them cost the CSV load
 * thread about 0.1 CPU-s a million rows, as much as the scan saved. Data copied on the activity's thread
 * is read for them here (copyDataStats).
 *
 * Either way the figures are those PostgreSQL's own aggregates give over the table (featureTableStats):
 * a box is taken with its corners in order as box_recv puts them, the extent grows as `bound_box` grows
 * it, and a text value's length is its UTF-8 bytes as sent, which binary COPY stores unchanged in a
 * UTF-8 database. Data whose figures cannot be told that way (text-format COPY, a box holding NaN) has
 * none, and the load's figures are then unknown: finishLayer scans the table as before.
 */
import type { Bounds } from '../../lib/geometry/types.js';
import { COPY_HEADER_BYTES } from './copy-binary.js';

export interface LoadedStats {
  /** Rows copied. */
  rows: number;
  /** The box around the rows' boxes; null when no row has one. */
  extent: Bounds | null;
  /** The longest value of each measured column (StatsLayout.measured's order), in bytes; 0 when none. */
  longest: number[];
}

/** Where the figures are in a COPY row: the box's field and the measured text fields, by position. */
export interface StatsLayout {
  box: number;
  measured: number[];
}

/** The layout of rows copied as `columns` (copyColumns), measuring `measuredColumns`. */
export function statsLayout(columns: readonly string[], measuredColumns: readonly string[]): StatsLayout {
  const at = (c: string) => {
    const i = columns.indexOf(c);
    if (i < 0) throw new Error(`Column ${c} is not among the copied columns.`);
    return i;
  };
  return { box: at('bbox'), measured: measuredColumns.map(at) };
}

/** The figures of no rows (a load's start). */
export const noRowsStats = (layout: StatsLayout): LoadedStats => ({
  rows: 0,
  extent: null,
  longest: layout.measured.map(() => 0),
});

/**
 * The figures of one batch's COPY data (header, rows and trailer, as CopyBinaryWriter writes it; an
 * empty batch is ''). Undefined where they cannot be told (see the module's comment).
 */
export function copyDataStats(data: Uint8Array | string, layout: StatsLayout): LoadedStats | undefined {
  if (typeof data === 'string') return data === '' ? noRowsStats(layout) : undefined;
  if (data.length === 0) return noRowsStats(layout);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // The header: signature, flags, then the length of an extension to skip.
  let pos = COPY_HEADER_BYTES + view.getInt32(COPY_HEADER_BYTES - 4);
  const { box, measured } = layout;
  const longest = measured.map(() => 0);
  // Which field is measured, and where its figure goes (-1: not measured).
  const slot = new Int32Array(Math.max(box, ...measured) + 1).fill(-1);
  for (let k = 0; k < measured.length; k++) slot[measured[k]] = k;
  let rows = 0;
  let xmin = Number.POSITIVE_INFINITY;
  let ymin = Number.POSITIVE_INFINITY;
  let xmax = Number.NEGATIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  let boxes = 0;
  for (;;) {
    const fields = view.getInt16(pos);
    pos += 2;
    if (fields === -1) break;
    rows++;
    for (let f = 0; f < fields; f++) {
      const length = view.getInt32(pos);
      pos += 4;
      if (length < 0) continue;
      if (f === box) {
        if (length !== 32) return undefined;
        // Sent as the high corner, then the low one; box_recv orders each axis's two values.
        const hx = view.getFloat64(pos);
        const hy = view.getFloat64(pos + 8);
        const lx = view.getFloat64(pos + 16);
        const ly = view.getFloat64(pos + 24);
        if (Number.isNaN(hx) || Number.isNaN(hy) || Number.isNaN(lx) || Number.isNaN(ly)) return undefined;
        xmin = Math.min(xmin, hx, lx);
        ymin = Math.min(ymin, hy, ly);
        xmax = Math.max(xmax, hx, lx);
        ymax = Math.max(ymax, hy, ly);
        boxes++;
      } else if (f < slot.length && slot[f] >= 0 && length > longest[slot[f]]) {
        longest[slot[f]] = length;
      }
      pos += length;
    }
  }
  return { rows, extent: boxes > 0 ? [xmin, ymin, xmax, ymax] : null, longest };
}

/**
 * The figures an encoder kept as it wrote rows (row-encoder.ts): `loaded` rows, the box around their
 * boxes, and the longest of each measured field. The same as copyDataStats finds in the data written,
 * without reading it again (about 0.1 CPU-s a million rows on the CSV load thread).
 */
export const encodedStats = (loaded: number, bounds: Bounds | null, longest: number[]): LoadedStats => ({
  rows: loaded,
  extent: loaded > 0 ? bounds : null,
  longest,
});

/** The figures of two loads' rows together; unknown if either's are. */
export function addedStats(a: LoadedStats | undefined, b: LoadedStats | undefined): LoadedStats | undefined {
  if (!a || !b || a.longest.length !== b.longest.length) return undefined;
  const extent: Bounds | null =
    a.extent && b.extent
      ? [
          Math.min(a.extent[0], b.extent[0]),
          Math.min(a.extent[1], b.extent[1]),
          Math.max(a.extent[2], b.extent[2]),
          Math.max(a.extent[3], b.extent[3]),
        ]
      : (a.extent ?? b.extent);
  return { rows: a.rows + b.rows, extent, longest: a.longest.map((n, i) => Math.max(n, b.longest[i])) };
}
