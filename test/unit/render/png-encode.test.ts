import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeRgbaPng } from '../../../lib/render/png-encode.js';

/** Straight RGBA decoded by libvips (sharp), an independent PNG reader. */
async function decode(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), info };
}

/** A deterministic image with every kind of pixel a tile has: clear, opaque, half-transparent, odd colours. */
function image(width: number, height: number, seed: number): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  let s = seed;
  for (let i = 0; i < out.length; i += 4) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const kind = s % 4;
    if (kind === 0) continue; // transparent: all four bytes zero
    out[i] = (s >>> 3) & 255;
    out[i + 1] = (s >>> 11) & 255;
    out[i + 2] = (s >>> 19) & 255;
    out[i + 3] = kind === 1 ? 255 : (s >>> 7) & 255;
  }
  return out;
}

describe('PNG encoder', () => {
  it('writes a file another reader decodes to the same RGBA pixels', async () => {
    const rgba = image(256, 256, 7);
    const png = await encodeRgbaPng(rgba, 256, 0, 0, 256, 256);
    const { data, info } = await decode(png);
    expect([info.width, info.height, info.channels]).toEqual([256, 256, 4]);
    expect(Buffer.from(data).equals(Buffer.from(rgba))).toBe(true);
  });

  it('encodes a block of a larger image (a tile of its metatile) as that block alone', async () => {
    const meta = image(96, 64, 11);
    const png = await encodeRgbaPng(meta, 96, 32, 16, 40, 24);
    const { data, info } = await decode(png);
    expect([info.width, info.height]).toEqual([40, 24]);
    const block = new Uint8Array(40 * 24 * 4);
    for (let y = 0; y < 24; y++)
      block.set(meta.subarray(((16 + y) * 96 + 32) * 4, ((16 + y) * 96 + 72) * 4), y * 160);
    expect(Buffer.from(data).equals(Buffer.from(block))).toBe(true);
  });

  it('gives a file whose chunks and checksums a strict checker accepts', async () => {
    const png = await encodeRgbaPng(image(16, 16, 3), 16, 0, 0, 16, 16);
    // Python's zlib and binascii, independent of Node's: every chunk's CRC and the deflate stream.
    const script = `
import sys, struct, zlib, binascii
b = sys.stdin.buffer.read()
assert b[:8] == bytes([137,80,78,71,13,10,26,10])
i, kinds, idat = 8, [], b''
while i < len(b):
    n, = struct.unpack('>I', b[i:i+4]); t = b[i+4:i+8]; d = b[i+8:i+8+n]
    crc, = struct.unpack('>I', b[i+8+n:i+12+n])
    assert binascii.crc32(t + d) == crc, t
    kinds.append(t.decode()); idat += d if t == b'IDAT' else b''
    i += 12 + n
raw = zlib.decompress(idat)
print(','.join(kinds), struct.unpack('>IIBBBBB', b[16:29]), len(raw))
`;
    const out = execFileSync('python3', ['-c', script], { input: png }).toString().trim();
    expect(out).toBe('IHDR,IDAT,IEND (16, 16, 8, 6, 0, 0, 0) 1040');
  });
});
