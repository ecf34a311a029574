import { describe, expect, it } from 'vitest';
import { COPY_HEADER_BYTES, CopyBinaryWriter } from '../../../activities/publish/copy-binary.js';

/** Copies of a writer's finished data, which is a view of its buffer. */
const finished = (w: CopyBinaryWriter) => Buffer.from(w.finish());

describe('CopyBinaryWriter', () => {
  it("writes a point's JSON as text of the template string would, digit for digit", () => {
    let x = 12345;
    const random = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    const values = [
      0,
      -0,
      1,
      -1,
      0.1 + 0.2,
      1e-7,
      -1.5e-10,
      5e-324,
      1e21,
      -1.7976931348623157e308,
      123456789,
    ];
    for (let i = 0; i < 2000; i++)
      values.push((random() - 0.5) * 4e7, (random() - 0.5) * 1e-3, random() * 1e6);
    const byText = new CopyBinaryWriter(64);
    const byPoint = new CopyBinaryWriter(64);
    for (let i = 0; i + 1 < values.length; i++) {
      const [px, py] = [values[i], values[i + 1]];
      byText.row(1);
      byText.text(`{"x":${px},"y":${py}}`);
      byPoint.row(1);
      byPoint.pointJson(px, py);
    }
    expect(finished(byPoint).equals(finished(byText))).toBe(true);
  });

  it('starts again after restart with its header and nothing of the rows before', () => {
    const w = new CopyBinaryWriter(64);
    w.row(1);
    w.text('first');
    const first = finished(w);
    w.restart();
    w.row(1);
    w.text('second, longer than the buffer it started with: '.repeat(4));
    const second = finished(w);
    const fresh = new CopyBinaryWriter(64);
    fresh.row(1);
    fresh.text('second, longer than the buffer it started with: '.repeat(4));
    expect(second.equals(finished(fresh))).toBe(true);
    expect(second.subarray(0, COPY_HEADER_BYTES).equals(first.subarray(0, COPY_HEADER_BYTES))).toBe(true);
  });
});
