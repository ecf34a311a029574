/**
 * Picture symbols' images decoded for drawing: kept at most MAX_PICTURE_SIDE on a side, and a picture
 * of more than MAX_PICTURE_PIXELS not decoded at all (it draws nothing), whatever its file size.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  decodePictures,
  MAX_PICTURE_PIXELS,
  MAX_PICTURE_SIDE,
} from '../../../activities/tiles/picture-symbols.js';
import type { DrawingInfo } from '../../../lib/render/types.js';

const png = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 4, background: { r: rgb[0], g: rgb[1], b: rgb[2], alpha: 1 } } })
    .png()
    .toBuffer();

const withPictures = (...images: Buffer[]): DrawingInfo =>
  ({
    renderer: {
      type: 'uniqueValue',
      field1: 'k',
      uniqueValueInfos: images.map((image, i) => ({
        value: String(i),
        label: String(i),
        symbol: {
          type: 'esriPMS',
          imageData: image.toString('base64'),
          contentType: 'image/png',
          width: 16,
          height: 16,
        },
      })),
    },
  }) as unknown as DrawingInfo;

describe('picture symbols decoded for drawing', () => {
  it('keeps a small picture as it is, shrinks a large one, and leaves out one past the pixel cap', async () => {
    const small = await png(40, 20, [200, 10, 30]);
    const large = await png(1000, 600, [0, 0, 255]);
    // 5,000 × 5,000 = 25 million pixels (100 MB decoded), over the cap (16.8 million), in a file under 1 MiB.
    const huge = await png(5000, 5000, [0, 255, 0]);
    expect(5000 * 5000).toBeGreaterThan(MAX_PICTURE_PIXELS);
    expect(huge.length).toBeLessThan(1024 ** 2);
    const pictures = [...(await decodePictures([withPictures(small, large, huge)])).values()];
    expect(pictures.map((p) => [p.width, p.height])).toEqual([
      [40, 20],
      [MAX_PICTURE_SIDE, Math.round((600 / 1000) * MAX_PICTURE_SIDE)],
    ]);
    expect(pictures.map((p) => p.data.length)).toEqual([40 * 20 * 4, 512 * 307 * 4]);
    expect([...pictures[0].data.subarray(0, 4)]).toEqual([200, 10, 30, 255]);
    expect([...pictures[1].data.subarray(0, 4)]).toEqual([0, 0, 255, 255]);
  });
});
