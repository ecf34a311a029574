import { describe, expect, it } from 'vitest';
import { servedLayer, servedMapLayer, servedService } from '../../../lib/service/engine-capabilities.js';

// A polygon layer as the first publishes stored it (git 7867bf3), with a flag copied from a client.
const oldLayer = {
  id: 0,
  name: 'Plots',
  geometryType: 'esriGeometryPolygon',
  supportsAppend: false,
  supportsCalculate: false,
  supportsCoordinatesQuantization: false,
  supportsExceedsLimitStatistics: true,
  advancedQueryCapabilities: { supportsPagination: true, supportsReturningGeometryCentroid: false },
  supportedQueryFormats: 'JSON, geoJSON',
  capabilities: 'Query',
  maxRecordCount: 1000,
};

describe('capabilities derived when layer and service JSON are served', () => {
  it('a layer gets the engine’s flags over the stored ones, keeping what the row decides', () => {
    const served = servedLayer(oldLayer);
    expect(served).toMatchObject({
      name: 'Plots',
      capabilities: 'Query',
      maxRecordCount: 1000,
      supportsAppend: true,
      supportsCalculate: true,
      supportsTruncate: true,
      supportsCoordinatesQuantization: true,
      supportedQueryFormats: 'JSON, geoJSON, PBF',
    });
    expect(
      (served.advancedQueryCapabilities as Record<string, boolean>).supportsReturningGeometryCentroid,
    ).toBe(true);
    expect(served.supportsExceedsLimitStatistics).toBeUndefined();
    // Keys keep their stored places; the engine's new ones follow.
    expect(Object.keys(served).slice(0, 3)).toEqual(['id', 'name', 'geometryType']);
  });

  it('a point layer does not claim centroids', () => {
    const served = servedLayer({ ...oldLayer, geometryType: 'esriGeometryPoint' });
    expect(
      (served.advancedQueryCapabilities as Record<string, boolean>).supportsReturningGeometryCentroid,
    ).toBe(false);
  });

  it('a MapServer layer advertises the query engine and no edit operation', () => {
    const served = servedMapLayer(oldLayer);
    expect(served.supportedQueryFormats).toBe('JSON, geoJSON, PBF');
    expect(served.supportsStatistics).toBe(true);
    for (const key of ['supportsAppend', 'supportedAppendFormats', 'supportsCalculate', 'supportsTruncate'])
      expect(served[key]).toBeUndefined();
  });

  it('a service advertises PBF and none of the flags it does not set', () => {
    const served = servedService({ name: 'x', supportedQueryFormats: 'JSON', supportsMagic: true });
    expect(served).toEqual({
      name: 'x',
      supportedQueryFormats: 'JSON, geoJSON, PBF',
      supportsDisconnectedEditing: false,
      supportsRelationshipsResource: false,
      syncEnabled: false,
    });
  });
});
