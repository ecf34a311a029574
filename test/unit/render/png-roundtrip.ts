import sharp from 'sharp';

/** Encodes straight RGBA as PNG the way the tile activity will, and decodes it back for pixel checks. */
export async function throughPng(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height || info.channels !== 4)
    throw new Error('unexpected PNG shape');
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

export const pixel = (rgba: Uint8Array, width: number, x: number, y: number): number[] => [
  ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
];
