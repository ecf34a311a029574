import { describe, expect, it } from 'vitest';
import { cropTile, tilePainted } from '../../../lib/render/metatile-crop.js';
import { renderTile } from '../../../lib/render/render-tile.js';
import { pixel } from './png-roundtrip.js';

describe('metatile cropping', () => {
  it('gives the same pixels as rendering the tile on its own', () => {
    const drawingInfo = {
      renderer: {
        type: 'simple' as const,
        symbol: { type: 'esriSMS' as const, style: 'esriSMSCircle', color: [255, 0, 0, 255], size: 12 },
      },
    };
    // A point on the corner shared by four 16-px tiles of a 32-px metatile.
    const features = [{ geometry: { x: 16, y: 16 } }];
    const meta = renderTile({ features, drawingInfo, envelope: [0, 0, 32, 32], width: 32, height: 32 });
    const alone = renderTile({ features, drawingInfo, envelope: [16, 0, 32, 16], width: 16, height: 16 });
    const cropped = cropTile(meta, 32, 1, 1, 16);
    expect(Buffer.from(cropped).equals(Buffer.from(alone))).toBe(true);
    expect(pixel(cropped, 16, 0, 0)[3]).toBe(255);
  });

  it('says which tiles of a metatile have a painted pixel, as a scan of each cropped tile does', () => {
    const meta = new Uint8Array(32 * 32 * 4);
    // One pixel with only alpha set in tile (1, 0), one with colour but no alpha in tile (0, 1).
    meta[(5 * 32 + 20) * 4 + 3] = 1;
    meta[(20 * 32 + 3) * 4] = 255;
    const painted = [0, 1].flatMap((row) => [0, 1].map((col) => tilePainted(meta, 32, col, row, 16)));
    const scanned = [0, 1].flatMap((row) =>
      [0, 1].map((col) => cropTile(meta, 32, col, row, 16).some((v, i) => i % 4 === 3 && v !== 0)),
    );
    expect(painted).toEqual([false, true, false, false]);
    expect(painted).toEqual(scanned);
  });
});
