import { describe, expect, it } from 'vitest';
import type { HostedMap } from '../../../soap/handlers/map-context.js';
import { fitExtent, mapView, toMap, toScreen, visibleAtScale } from '../../../soap/handlers/map-display.js';
import type { MapDescription } from '../../../soap/schema/generated-types.js';

const map = {
  spatialReference: { wkid: 102100, latestWkid: 3857 },
  extent: [0, 0, 1000, 1000],
} as unknown as HostedMap;

const extent = (xmin: number, ymin: number, xmax: number, ymax: number): MapDescription => ({
  Name: 'Layers',
  Rotation: 0,
  MapArea: {
    $type: 'MapExtent',
    Extent: { $type: 'EnvelopeN', XMin: xmin, YMin: ymin, XMax: xmax, YMax: ymax },
  },
});

describe('map display', () => {
  it('grows the short side of an extent about its centre to the image aspect ratio', () => {
    expect(fitExtent([0, 0, 100, 100], 200, 100)).toEqual([-50, 0, 150, 100]);
  });

  it('computes the scale with 39.37 inches per metre, as Esri LODs do', () => {
    // 156543.033928 m per pixel at 96 DPI is level 0 of the Web Mercator scheme.
    const width = 156543.033928 * 256;
    const view = mapView(
      extent(0, 0, width, width),
      { ImageWidth: 256, ImageHeight: 256, ImageDPI: 96 },
      map,
    );
    expect(view.scale).toBeCloseTo(591657527.591555, 3);
  });

  it('centres a CenterAndScale area and sizes it from the scale, DPI and image size', () => {
    const md: MapDescription = {
      Name: 'Layers',
      Rotation: 0,
      MapArea: { $type: 'CenterAndScale', Center: { $type: 'PointN', X: 500, Y: 500 }, Scale: 96 * 39.37 },
    };
    const view = mapView(md, { ImageWidth: 100, ImageHeight: 50, ImageDPI: 96 }, map);
    expect(view.extent).toEqual([450, 475, 550, 525]);
    expect(view.resolution).toBeCloseTo(1, 12);
  });

  it('maps pixels to map coordinates from the top-left corner and back', () => {
    const view = mapView(extent(0, 0, 300, 200), { ImageWidth: 300, ImageHeight: 200, ImageDPI: 96 }, map);
    expect(toMap(view, 10, 20)).toEqual([10, 180]);
    expect(toScreen(view, 10, 180)).toEqual([10, 20]);
  });

  it('draws a layer only between its min and max scale, 0 meaning no limit', () => {
    expect(visibleAtScale(50_000, 100_000, 0)).toBe(true);
    expect(visibleAtScale(150_000, 100_000, 0)).toBe(false);
    expect(visibleAtScale(500, 0, 1000)).toBe(false);
  });

  it('refuses an empty extent with a client fault', () => {
    expect(() => mapView(extent(5, 5, 5, 9), { ImageWidth: 10, ImageHeight: 10, ImageDPI: 96 }, map)).toThrow(
      'The map extent is empty.',
    );
  });
});
