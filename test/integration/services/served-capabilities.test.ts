/**
 * The capability keys of layer and service JSON come from the engine when served, so a service whose
 * stored JSON is shaped as an older publish wrote it (no PBF, no append, calculate or truncate, flags
 * the engine never honoured) advertises what is served today; and the MapServer of a feature service
 * advertises PBF and answers the Maps SDK's quantized f=pbf query, decoded by protobufjs from Esri's
 * schema (test/fixtures/pbf).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  findLayer,
  findServiceByName,
  updateService,
  upsertLayer,
} from '../../../db/repositories/services.js';
import { decodeFeatureCollection, worldGeometry } from '../../fixtures/pbf/decode-feature-collection.js';
import { featureServer, uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

const fixture = join(import.meta.dirname, '..', '..', 'fixtures', 'pbf', 'cities.geojson');
const name = uniqueName('old_cities');
const mapServer = `/rest/services/Hosted/${name}/MapServer`;

/** What a layer published in the first round stored (git 7867bf3's layer-definition.ts), plus a stray flag. */
const OLD_LAYER_KEYS = {
  supportsAppend: false,
  supportsCalculate: false,
  supportsTruncate: false,
  supportsCoordinatesQuantization: false,
  supportsExceedsLimitStatistics: true,
  advancedQueryCapabilities: { supportsPagination: true, supportsQueryWithDistance: false },
  supportedQueryFormats: 'JSON, geoJSON',
};

describe('capabilities served for a service stored by an older publish', () => {
  let token: string;
  let database: DatabaseHandle;
  const get = async (path: string) => (await call(path, { token, f: 'json' }, { method: 'GET' })).json;

  beforeAll(async () => {
    token = await signIn();
    const owner = stack().admin.username;
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      { token, filetype: 'geojson', publishParameters: JSON.stringify({ name }) },
      { name: `${name}.geojson`, path: fixture },
    );
    const service = res.services?.[0];
    if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
    expect((await waitForJob(token, owner, service.serviceItemId, service.jobId)).status).toBe('completed');
    // Rewrite the stored JSON as the first publishes wrote it.
    database = await openDatabase({ databaseUrl: stack().databaseUrl });
    const row = (await findServiceByName(database.db, name))!;
    const layer = (await findLayer(database.db, row.serviceItemId, 0))!;
    const old: Record<string, unknown> = { ...layer.definition, ...OLD_LAYER_KEYS };
    delete old.supportedAppendFormats;
    delete old.useStandardizedQueries;
    await upsertLayer(database.db, { ...layer, definition: old });
    await updateService(database.db, row.serviceItemId, {
      definition: { ...row.definition, supportedQueryFormats: 'JSON, geoJSON', supportsMagic: true },
    });
  }, 120_000);

  afterAll(async () => {
    await database?.close();
  });

  it('the stored rows really are the old shape', async () => {
    const row = (await findServiceByName(database.db, name))!;
    expect(row.definition.supportedQueryFormats).toBe('JSON, geoJSON');
    expect((await findLayer(database.db, row.serviceItemId, 0))!.definition.supportsAppend).toBe(false);
  });

  it('the FeatureServer layer, its /layers entry and the admin layer advertise what the engine does', async () => {
    const served = [
      await get(`${featureServer(name)}/0`),
      (await get(`${featureServer(name)}/layers`)).layers[0],
      await get(`/rest/admin/services/Hosted/${name}/FeatureServer/0`),
    ];
    for (const layer of served) {
      expect(layer).toMatchObject({
        supportsAppend: true,
        supportedAppendFormats:
          'csv,excel,geojson,shapefile,featureCollection,sqlite,geoPackage,filegdb,serviceDefinition',
        supportsCalculate: true,
        supportsTruncate: true,
        supportsCoordinatesQuantization: true,
        supportedQueryFormats: 'JSON, geoJSON, PBF',
        useStandardizedQueries: true,
        advancedQueryCapabilities: {
          supportsQueryWithDistance: true,
          supportsHavingClause: true,
          supportsPercentileStatistics: true,
          supportsReturningGeometryCentroid: false,
          supportsQueryRelatedPagination: true,
        },
      });
      expect(layer.supportsExceedsLimitStatistics).toBeUndefined();
      // What the row stores and no engine decides stays as stored.
      expect(layer.geometryType).toBe('esriGeometryPoint');
      expect(layer.fields.map((f: { name: string }) => f.name)).toEqual(['OBJECTID', 'name', 'pop', 'ratio']);
    }
  });

  it('the FeatureServer resource advertises PBF and drops flags it does not honour', async () => {
    const svc = await get(featureServer(name));
    expect(svc.supportedQueryFormats).toBe('JSON, geoJSON, PBF');
    expect(svc.supportsMagic).toBeUndefined();
    expect(svc.layers.map((l: { id: number }) => l.id)).toEqual([0]);
  });

  it('the MapServer and its layer advertise PBF, and the layer no edit operations', async () => {
    expect((await get(mapServer)).supportedQueryFormats).toBe('JSON, geoJSON, PBF');
    const layer = await get(`${mapServer}/0`);
    expect(layer).toMatchObject({
      capabilities: 'Map,Query,Data',
      supportedQueryFormats: 'JSON, geoJSON, PBF',
    });
    for (const key of ['supportsAppend', 'supportsCalculate', 'supportsTruncate', 'supportedAppendFormats'])
      expect(layer[key]).toBeUndefined();
    // The MapServer answers no queryRelatedRecords, so its layers claim none.
    expect(layer.advancedQueryCapabilities).toMatchObject({
      supportsQueryRelatedPagination: false,
      supportsAdvancedQueryRelated: false,
    });
    expect((await get(`${mapServer}/layers`)).layers[0].supportedQueryFormats).toBe('JSON, geoJSON, PBF');
  });

  it('a Maps SDK-style f=pbf query on the MapServer layer decodes to the file’s cities in Web Mercator', async () => {
    const file = JSON.parse(readFileSync(fixture, 'utf8'));
    // Web Mercator on the sphere, computed here: x = R·λ, y = R·ln tan(π/4 + φ/2).
    const R = 6378137;
    const mercator = ([lon, lat]: number[]) => [
      (R * lon * Math.PI) / 180,
      R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)),
    ];
    const tolerance = 10;
    const extent = { xmin: -20037508.34, ymin: -20037508.34, xmax: 20037508.34, ymax: 20037508.34 };
    const body = new URLSearchParams({
      token,
      f: 'pbf',
      where: '1=1',
      outFields: '*',
      returnGeometry: 'true',
      orderByFields: 'OBJECTID',
      spatialRel: 'esriSpatialRelIntersects',
      geometry: JSON.stringify({ ...extent, spatialReference: { wkid: 102100 } }),
      geometryType: 'esriGeometryEnvelope',
      inSR: '102100',
      outSR: '102100',
      quantizationParameters: JSON.stringify({
        mode: 'view',
        originPosition: 'upperLeft',
        tolerance,
        extent: { ...extent, spatialReference: { wkid: 102100 } },
      }),
    });
    const res = await fetch(`${stack().baseUrl}${mapServer}/0/query`, { method: 'POST', body });
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    const result = decodeFeatureCollection(new Uint8Array(await res.arrayBuffer())).queryResult
      .featureResult!;
    expect(result.features).toHaveLength(file.features.length);
    file.features.forEach((f: { geometry: { coordinates: number[] } }, i: number) => {
      const p = worldGeometry('esriGeometryTypePoint', result.features![i].geometry!, result.transform!) as {
        x: number;
        y: number;
      };
      const [x, y] = mercator(f.geometry.coordinates);
      expect(Math.abs(p.x - x)).toBeLessThanOrEqual(tolerance / 2 + 1e-6);
      expect(Math.abs(p.y - y)).toBeLessThanOrEqual(tolerance / 2 + 1e-6);
    });
  });
});
