import { describe, expect, it } from 'vitest';
import { renderGeoJson } from '../../../lib/query/geojson-response.js';
import { parcelFields } from './parcels-layer.js';

describe('GeoJSON feature collection', () => {
  const fields = [parcelFields.lookup('OBJECTID')!, parcelFields.lookup('Surveyed')!];

  it('uses the object id as the feature id and dates as epoch milliseconds', () => {
    const rows = [{ objectid: 7, attrs: { Surveyed: new Date(5000) }, shape: { x: 1, y: 2 } }];
    expect(renderGeoJson(fields, rows, false, 'OBJECTID')).toEqual({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 7,
          geometry: { type: 'Point', coordinates: [1, 2] },
          properties: { OBJECTID: 7, Surveyed: 5000 },
        },
      ],
    });
  });

  it('writes a clockwise Esri ring as a counter-clockwise GeoJSON polygon', () => {
    const ring = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
      [0, 0],
    ];
    const out = renderGeoJson(
      fields,
      [{ objectid: 1, attrs: {}, shape: { rings: [ring] } }],
      false,
      'OBJECTID',
    );
    expect(out.features[0].geometry).toEqual({ type: 'Polygon', coordinates: [ring.slice().reverse()] });
  });

  it('gives a feature without a shape a null geometry', () => {
    const out = renderGeoJson(fields, [{ objectid: 1, attrs: {}, shape: null }], false, 'OBJECTID');
    expect(out.features[0].geometry).toBeNull();
  });

  it('says exceededTransferLimit in the collection properties when more rows remain', () => {
    expect(renderGeoJson(fields, [], true, 'OBJECTID').properties).toEqual({ exceededTransferLimit: true });
    expect(renderGeoJson(fields, [], false, 'OBJECTID')).not.toHaveProperty('properties');
  });
});
