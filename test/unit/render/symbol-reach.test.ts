import { describe, expect, it } from 'vitest';
import { maxSymbolReach, queryBounds } from '../../../lib/render/symbol-reach.js';
import type { DrawingInfo } from '../../../lib/render/types.js';

describe('symbol reach', () => {
  it('takes the largest symbol of a unique value renderer', () => {
    const info: DrawingInfo = {
      renderer: {
        type: 'uniqueValue',
        field1: 'k',
        uniqueValueInfos: [
          { value: 'a', symbol: { type: 'esriSMS', style: 'esriSMSCircle', color: [0, 0, 0, 255], size: 6 } },
          {
            value: 'b',
            symbol: { type: 'esriSMS', style: 'esriSMSCircle', color: [0, 0, 0, 255], size: 30 },
          },
        ],
      },
    };
    // 30 pt = 40 px; its diagonal half-extent is 28.3 px, plus a pixel of antialiasing.
    expect(maxSymbolReach(info)).toBe(30);
  });

  it('counts the largest size a size visual variable can give', () => {
    const info: DrawingInfo = {
      renderer: {
        type: 'simple',
        symbol: { type: 'esriSMS', style: 'esriSMSCircle', color: [0, 0, 0, 255], size: 4 },
        visualVariables: [
          { type: 'sizeInfo', field: 'v', minDataValue: 0, maxDataValue: 1, minSize: 4, maxSize: 60 },
        ],
      },
    };
    expect(maxSymbolReach(info)).toBeGreaterThanOrEqual(57);
  });

  it('grows tile bounds by the reach at the tile resolution', () => {
    expect(queryBounds([0, 0, 256, 256], 10, 2)).toEqual([-20, -20, 276, 276]);
  });
});
