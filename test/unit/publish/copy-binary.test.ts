import { describe, expect, it } from 'vitest';
import { COPY_HEADER_BYTES, CopyBinaryWriter } from '../../../activities/publish/copy-binary.js';

/** Copies of a writer's finished data, which is a view of its buffer. */
const finished = (w: CopyBinaryWriter) => Buffer.from(w.finish());

describe('CopyBinaryWriter', () => {
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
