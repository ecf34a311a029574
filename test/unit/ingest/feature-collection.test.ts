import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { featureCollectionLayers } from '../../../lib/ingest/feature-collection.js';

const doc = JSON.parse(readFileSync('test/fixtures/publish/feature-collection/stops-and-zones.json', 'utf8'));

describe('feature collections', () => {
  it('reads each layer with its declared fields, object id field left out', () => {
    const [stops, zones] = featureCollectionLayers(doc);
    expect(stops.fields).toEqual([
      { name: 'stop_name', alias: 'Stop name', type: 'esriFieldTypeString', length: 50, nullable: false },
      { name: 'kind', alias: 'Kind', type: 'esriFieldTypeString', length: 10, nullable: true },
      { name: 'boardings', alias: 'Daily boardings', type: 'esriFieldTypeInteger', nullable: true },
      { name: 'opened', alias: 'Opened', type: 'esriFieldTypeDate', nullable: true },
    ]);
    expect(zones.fields.map((f) => f.name)).toEqual(['zone', 'price']);
  });

  it('keeps rows, geometries, geometry type, spatial reference and drawing information', () => {
    const [stops, zones] = featureCollectionLayers(doc);
    expect(stops.rows[1]).toEqual(['Harbour', 'tram', 830, null]);
    expect(stops.geometries[1]).toEqual({ x: 1000500.5, y: 6000250.25 });
    expect(stops.spatialReference).toEqual({ wkid: 102100, latestWkid: 3857 });
    expect(stops.geometryType).toBe('esriGeometryPoint');
    expect(stops.layerInfo.displayField).toBe('stop_name');
    expect((stops.layerInfo.drawingInfo as any).renderer.field1).toBe('kind');
    expect(zones.geometries).toEqual([
      {
        rings: [
          [
            [8, 53],
            [8, 54],
            [9, 54],
            [9, 53],
            [8, 53],
          ],
        ],
      },
      null,
    ]);
  });

  it('reads a web map operational layer and a bare layer alike', () => {
    expect(featureCollectionLayers({ featureCollection: doc })[1].name).toBe('Fare zones');
    expect(featureCollectionLayers(doc.layers[0])[0].rows).toHaveLength(3);
  });

  it('gives a geometry of the wrong kind its reason', () => {
    const layer = structuredClone(doc.layers[0]);
    layer.featureSet.features[0].geometry = {
      paths: [
        [
          [0, 0],
          [1, 1],
        ],
      ],
    };
    expect(featureCollectionLayers(layer)[0].geometries[0]).toEqual({
      reason: 'A esriGeometryPolyline cannot be stored in a esriGeometryPoint layer.',
    });
  });

  it('gives a geometry with a vertex that is not coordinates, or a point with a text y, its reason', () => {
    // Found by the abuse suite: a null vertex in the second place of a ring passed through (only the
    // first vertex was looked at) and broke the extent, a 500.
    const zones = structuredClone(doc.layers[1]);
    zones.featureSet.features[0].geometry.rings[0][1] = null;
    const stops = structuredClone(doc.layers[0]);
    stops.featureSet.features[0].geometry = { x: 5, y: 'north' };
    stops.featureSet.features[1].geometry = { x: 5, y: 6, z: 7 };
    expect(featureCollectionLayers(zones)[0].geometries[0]).toEqual({
      reason: 'The geometry has vertices that are not coordinate arrays.',
    });
    const [read] = featureCollectionLayers(stops);
    expect(read.geometries[0]).toEqual({ reason: 'The geometry has none of x/y, points, paths or rings.' });
    // A well-formed point is kept (its z left out: the layer declares none).
    expect(read.geometries[1]).toEqual({ x: 5, y: 6 });
  });

  it('keeps the domains its fields declare and refuses one the field type cannot hold', () => {
    const layer = structuredClone(doc.layers[0]);
    const kinds = {
      type: 'codedValue',
      name: 'Modes',
      codedValues: [
        { name: 'Bus', code: 'bus' },
        { name: 'Tram', code: 'tram' },
      ],
    };
    const boardings = { type: 'range', name: 'Boardings', range: [0, 5000] };
    layer.layerDefinition.fields[2].domain = kinds;
    layer.layerDefinition.fields[3].domain = boardings;
    const [read] = featureCollectionLayers(layer);
    expect(read.fields.map((f) => f.domain ?? null)).toEqual([null, kinds, boardings, null]);
    layer.layerDefinition.fields[3].domain = kinds;
    expect(() => featureCollectionLayers(layer)).toThrow(/Unable to read/);
  });

  it('refuses JSON that is not a feature collection', () => {
    expect(() => featureCollectionLayers({ type: 'FeatureCollection', features: [] })).toThrow(
      /Unable to read/,
    );
    expect(() => featureCollectionLayers({ layers: [{ layerDefinition: {} }] })).toThrow(/Unable to read/);
  });

  it('keeps z and m the layer declares; a geometry says its own layout with hasZ/hasM', () => {
    const [layer] = featureCollectionLayers({
      layers: [
        {
          layerDefinition: {
            name: 'survey',
            geometryType: 'esriGeometryPolyline',
            hasZ: true,
            hasM: true,
            fields: [],
          },
          featureSet: {
            features: [
              {
                attributes: {},
                geometry: {
                  paths: [
                    [
                      [1, 2, 3, 4],
                      [5, 6, 7, 8],
                    ],
                  ],
                },
              },
              {
                attributes: {},
                geometry: {
                  hasM: true,
                  hasZ: false,
                  paths: [
                    [
                      [1, 2, 40],
                      [5, 6, 80],
                    ],
                  ],
                },
              },
            ],
          },
        },
      ],
    });
    expect([layer.hasZ, layer.hasM]).toEqual([true, true]);
    expect(layer.geometries).toEqual([
      {
        paths: [
          [
            [1, 2, 3, 4],
            [5, 6, 7, 8],
          ],
        ],
      },
      {
        paths: [
          [
            [1, 2, 0, 40],
            [5, 6, 0, 80],
          ],
        ],
      },
    ]);
    const [points] = featureCollectionLayers({
      layers: [
        {
          layerDefinition: { geometryType: 'esriGeometryPoint', fields: [] },
          featureSet: { hasZ: true, features: [{ attributes: {}, geometry: { x: 1, y: 2, z: 9, m: 3 } }] },
        },
      ],
    });
    expect([points.hasZ, points.hasM]).toEqual([true, false]);
    expect(points.geometries).toEqual([{ x: 1, y: 2, z: 9 }]);
  });
});
