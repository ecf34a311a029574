import { describe, expect, it } from 'vitest';
import { webMercatorCache } from '../../../lib/tiles/cache-definition.js';
import { checkTileAddress } from '../../../soap/handlers/cache-handlers.js';
import {
  fromSoapColor,
  fromSoapSymbol,
  toSoapRenderer,
  toSoapSymbol,
} from '../../../soap/handlers/renderer-wire.js';

describe('renderers and symbols on the wire', () => {
  it('writes a marker symbol with its alpha and the geo style prefix, and reads it back', () => {
    const sms = {
      type: 'esriSMS' as const,
      style: 'esriSMSSquare',
      color: [1, 2, 3, 128],
      size: 8,
      angle: 0,
      xoffset: 0,
      yoffset: 0,
      outline: null,
    };
    const soap = toSoapSymbol(sms);
    expect(soap).toMatchObject({
      $type: 'SimpleMarkerSymbol',
      Style: 'geoSMSSquare',
      Color: { AlphaValue: 128 },
    });
    expect(fromSoapSymbol(soap)).toEqual(sms);
  });

  it('gives class breaks their minimum from the previous class maximum', () => {
    const soap = toSoapRenderer({
      type: 'classBreaks',
      field: 'n',
      minValue: 0,
      classBreakInfos: [{ classMaxValue: 10 }, { classMaxValue: 20 }],
    });
    expect(
      soap.$type === 'ClassBreaksRenderer' && soap.ClassBreakInfos.map((c) => c.ClassMinimumValue),
    ).toEqual([0, 10]);
  });

  it('turns an HSV color into RGB', () => {
    expect(fromSoapColor({ $type: 'HsvColor', Hue: 120, Saturation: 100, Value: 100 })).toEqual([
      0, 255, 0, 255,
    ]);
  });
});

describe('tile addresses', () => {
  const def = webMercatorCache({ minLevel: 3, maxLevel: 5 });

  it('accepts a tile inside a cached level', () => {
    expect(() => checkTileAddress(def, 4, 15, 0, 'png')).not.toThrow();
  });

  it('refuses a column past the level matrix', () => {
    expect(() => checkTileAddress(def, 4, 0, 16)).toThrow('Invalid column: 16 at level 4.');
  });

  it('refuses a format the cache does not hold', () => {
    expect(() => checkTileAddress(def, 4, 0, 0, 'jpg')).toThrow(
      'Invalid format: jpg; the cache holds PNG tiles.',
    );
  });
});
