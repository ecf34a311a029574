import { describe, expect, it } from 'vitest';
import type { SimpleMarkerSymbol } from '../../../lib/render/types.js';
import { applyVisualVariables } from '../../../lib/render/visual-variables.js';

const DOT: SimpleMarkerSymbol = {
  type: 'esriSMS',
  style: 'esriSMSCircle',
  color: [0, 0, 0, 255],
  size: 8,
  angle: 0,
};

describe('visual variables', () => {
  it('scales size linearly between the data and size bounds', () => {
    const out = applyVisualVariables(
      DOT,
      [{ type: 'sizeInfo', field: 'v', minDataValue: 0, maxDataValue: 100, minSize: 4, maxSize: 24 }],
      { v: 25 },
    );
    expect((out as SimpleMarkerSymbol).size).toBe(9);
  });

  it('clamps sizes outside the data range', () => {
    const vv = [
      { type: 'sizeInfo', field: 'v', minDataValue: 0, maxDataValue: 100, minSize: 4, maxSize: 24 },
    ];
    expect((applyVisualVariables(DOT, vv, { v: 1000 }) as SimpleMarkerSymbol).size).toBe(24);
  });

  it('interpolates colors between stops', () => {
    const vv = [
      {
        type: 'colorInfo',
        field: 'v',
        stops: [
          { value: 0, color: [0, 0, 0, 255] },
          { value: 10, color: [200, 100, 0, 255] },
        ],
      },
    ];
    expect((applyVisualVariables(DOT, vv, { v: 5 }) as SimpleMarkerSymbol).color).toEqual([100, 50, 0, 255]);
  });

  it('turns a geographic rotation into a counter-clockwise angle from east', () => {
    const vv = [{ type: 'rotationInfo', field: 'heading', rotationType: 'geographic' as const }];
    expect((applyVisualVariables(DOT, vv, { heading: 90 }) as SimpleMarkerSymbol).angle).toBe(0);
  });

  it('returns the same symbol object when no variable has a value', () => {
    expect(applyVisualVariables(DOT, [{ type: 'sizeInfo', field: 'v' }], {})).toBe(DOT);
  });
});
