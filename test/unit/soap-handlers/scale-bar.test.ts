import { describe, expect, it } from 'vitest';
import { drawScaleBar, layoutScaleBar, niceLength } from '../../../soap/handlers/scale-bar.js';

const input = {
  width: 200,
  height: 40,
  metersPerPixel: 10,
  units: 'geoKilometers' as const,
  divisions: 4,
  barColor: [0, 0, 0] as const,
};

describe('scale bar', () => {
  it('rounds a length down to 1, 2 or 5 times a power of ten', () => {
    expect([niceLength(1.7), niceLength(3.9), niceLength(730)]).toEqual([1, 2, 500]);
  });

  it('chooses a round length that fits the image and sizes the bar to it', () => {
    const layout = layoutScaleBar(input);
    expect(layout.unitLabel).toBe('km');
    expect(layout.length).toBe(1);
    expect(layout.barPixels).toBe(100);
  });

  it('paints the divisions alternately dark and white', () => {
    const { rgba } = drawScaleBar(input);
    const row = 12 * 200;
    const at = (x: number) => [...rgba.slice((row + x) * 4, (row + x) * 4 + 4)];
    expect(at(10)).toEqual([0, 0, 0, 255]);
    expect(at(35)).toEqual([255, 255, 255, 255]);
  });
});
