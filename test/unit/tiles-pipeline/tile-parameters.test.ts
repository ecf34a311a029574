import { describe, expect, it } from 'vitest';
import { parseTileLevels, parseTileParameters } from '../../../api/services/map-server-parameters.js';
import { tilePublishKind } from '../../../api/services/map-server-publish.js';
import { isGeoError } from '../../../lib/errors.js';

/** The details of the 400 a call throws. */
function detailsOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isGeoError(e)) return e.details.join(' ');
    throw e;
  }
  throw new Error('did not throw');
}

describe('parseTileParameters', () => {
  it('requires a service name', () => {
    expect(detailsOf(() => parseTileParameters('{}'))).toMatch(/'name' is required/);
  });

  it('refuses names with characters other than letters, digits and underscores', () => {
    expect(detailsOf(() => parseTileParameters('{"name":"a b"}'))).toMatch(/letters, digits/);
  });

  it('stores compact bundles unless the exploded format is asked for', () => {
    expect(parseTileParameters('{"name":"a"}').storage).toBe('compactV2');
    expect(
      parseTileParameters('{"name":"a","storageFormat":"esriMapCacheStorageModeExploded"}').storage,
    ).toBe('exploded');
  });
});

describe('parseTileLevels', () => {
  const levels = (p: Record<string, unknown>) =>
    parseTileLevels(parseTileParameters(JSON.stringify({ name: 'a', ...p })));

  it('reads a level range written with a dash', () => {
    expect(levels({ levels: '3-12' })).toEqual({ minLevel: 3, maxLevel: 12 });
  });

  it('reads a list of levels', () => {
    expect(levels({ levels: '5,6,7' })).toEqual({ minLevel: 5, maxLevel: 7 });
  });

  it('maps minScale and maxScale to the nearest levels', () => {
    expect(levels({ minScale: 591657527.591555, maxScale: 72000 })).toEqual({ minLevel: 0, maxLevel: 13 });
  });

  it('leaves the levels to the data when none are given', () => {
    expect(levels({})).toBeUndefined();
  });

  it('refuses a level outside the scheme', () => {
    expect(detailsOf(() => levels({ levels: '0-30' }))).toMatch(/levels '0-30'/);
  });
});

describe('tilePublishKind', () => {
  it('recognizes a feature service published as tiles', () => {
    expect(tilePublishKind('featureService', 'Tiles')).toBe('featureService');
    expect(tilePublishKind('service', 'tiles')).toBe('featureService');
  });

  it('recognizes a feature service published as vector tiles, in any spelling', () => {
    expect(tilePublishKind('featureService', 'VectorTiles')).toBe('featureServiceVectorTiles');
    expect(tilePublishKind('service', 'vectortiles')).toBe('featureServiceVectorTiles');
  });

  it('refuses an output type a feature service cannot be published as, instead of building raster tiles', () => {
    expect(detailsOf(() => tilePublishKind('featureService', 'sceneLayer'))).toMatch(
      /outputType 'sceneLayer'/,
    );
  });

  it('recognizes tile and vector tile packages', () => {
    expect(tilePublishKind('tilePackage', '')).toBe('tilePackage');
    expect(tilePublishKind('vectorTilePackage', '')).toBe('vectorTilePackage');
  });

  it('leaves feature publishing of files alone', () => {
    expect(tilePublishKind('csv', '')).toBeUndefined();
    expect(tilePublishKind('service', '')).toBeUndefined();
  });
});
