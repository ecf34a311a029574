/**
 * A load's figures told from its binary COPY data (activities/publish/copy-stats.ts): the rows, the box
 * around their boxes with each box's corners put in order as PostgreSQL's box_recv puts them, and the
 * longest measured text in UTF-8 bytes. The expected figures are worked out by hand from the rows
 * written; the integration tests compare loads' figures with PostgreSQL's over the loaded table.
 */
import { describe, expect, it } from 'vitest';
import { CopyBinaryWriter } from '../../../activities/publish/copy-binary.js';
import {
  addedStats,
  copyDataStats,
  noRowsStats,
  statsLayout,
} from '../../../activities/publish/copy-stats.js';

// objectid, a_0 (text, measured), a_1 (double), a_2 (text, not measured), a_3 (text, measured), shape, bbox
const columns = ['objectid', 'a_0', 'a_1', 'a_2', 'a_3', 'shape', 'bbox'];
const layout = statsLayout(columns, ['a_0', 'a_3']);

type Row = { id: number; a0: string | null; a3: string | null; box: [number, number, number, number] | null };

function write(rows: Row[], w = new CopyBinaryWriter(64)): Uint8Array {
  for (const r of rows) {
    w.row(7);
    w.int4(r.id);
    if (r.a0 === null) w.null();
    else w.text(r.a0);
    w.float8(r.id * 1.5);
    w.text('not measured, and longer than any measured value in these rows');
    if (r.a3 === null) w.null();
    else {
      const bytes = Buffer.from(r.a3);
      // ASCII cells go through the writer's byte paths, the rest through text().
      if (bytes.length === r.a3.length) w.ascii(bytes, 0, bytes.length);
      else w.text(r.a3);
    }
    w.null();
    if (r.box === null) w.null();
    else w.box(...r.box);
  }
  return w.finish();
}

describe('copyDataStats', () => {
  it('finds the layout of copyColumns by name', () => {
    expect(layout).toEqual({ box: 6, measured: [1, 4] });
    expect(() => statsLayout(columns, ['a_9'])).toThrow(/a_9/);
  });

  it('counts the rows, bounds their boxes and measures the text in bytes', () => {
    const data = write([
      { id: 1, a0: 'abc', a3: 'x', box: [10, 20, 10, 20] },
      // Corners given the wrong way round are ordered per axis, as PostgreSQL stores the box.
      { id: 2, a0: 'Zürich – Café', a3: null, box: [15, -5, 12, -7] },
      { id: 3, a0: null, a3: 'a longer plain value', box: null },
      { id: 4, a0: '', a3: '日本', box: [-3.25, 21, -1, 22.5] },
    ]);
    expect(copyDataStats(data, layout)).toEqual({
      rows: 4,
      extent: [-3.25, -7, 15, 22.5],
      // 'Zürich – Café': 13 characters, ü and é two bytes each, the dash three.
      longest: [17, 20],
    });
  });

  it('has no extent where no row has a box, and nothing for an empty batch', () => {
    expect(copyDataStats(write([{ id: 1, a0: 'a', a3: 'bb', box: null }]), layout)).toEqual({
      rows: 1,
      extent: null,
      longest: [1, 2],
    });
    expect(copyDataStats('', layout)).toEqual({ rows: 0, extent: null, longest: [0, 0] });
    expect(copyDataStats(write([]), layout)).toEqual(noRowsStats(layout));
  });

  it('reads a writer restarted for another batch from its header on', () => {
    const w = new CopyBinaryWriter(64);
    write([{ id: 1, a0: 'a much longer first batch value', a3: 'x', box: [100, 100, 200, 200] }], w);
    w.restart();
    const second = write([{ id: 2, a0: 'b', a3: 'yy', box: [1, 2, 3, 4] }], w);
    expect(copyDataStats(second, layout)).toEqual({ rows: 1, extent: [1, 2, 3, 4], longest: [1, 2] });
  });

  it('tells nothing for text-format data or a box holding NaN', () => {
    expect(copyDataStats('1\tabc\n', layout)).toBeUndefined();
    expect(
      copyDataStats(write([{ id: 1, a0: 'a', a3: 'b', box: [0, Number.NaN, 1, 1] }]), layout),
    ).toBeUndefined();
  });
});

describe('addedStats', () => {
  it("adds rows, joins extents and keeps each column's longest", () => {
    expect(
      addedStats(
        { rows: 2, extent: [0, 0, 1, 1], longest: [5, 1] },
        { rows: 3, extent: [-1, 0.5, 0.5, 4], longest: [2, 9] },
      ),
    ).toEqual({ rows: 5, extent: [-1, 0, 1, 4], longest: [5, 9] });
    expect(
      addedStats({ rows: 2, extent: null, longest: [] }, { rows: 1, extent: [1, 2, 3, 4], longest: [] }),
    ).toEqual({
      rows: 3,
      extent: [1, 2, 3, 4],
      longest: [],
    });
  });

  it('is unknown when either side is', () => {
    expect(addedStats(undefined, { rows: 1, extent: null, longest: [] })).toBeUndefined();
    expect(addedStats({ rows: 1, extent: null, longest: [] }, undefined)).toBeUndefined();
    expect(
      addedStats({ rows: 1, extent: null, longest: [1] }, { rows: 1, extent: null, longest: [] }),
    ).toBeUndefined();
  });
});
