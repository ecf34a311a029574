/**
 * GeoJSON publishes as a stream: a file larger than the planning sample is described from all of its
 * features (a property that first appears late still becomes a field; a column that turns from numbers
 * to text late is text) and every feature is loaded, batch after batch.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, stack } from '../support/portal-client.js';
import { featureServer, uniqueName, upload, waitForJob } from './publish-client.js';

const COUNT = 12_345;

function generatedCollection(): string {
  const features = Array.from({ length: COUNT }, (_, i) => ({
    type: 'Feature',
    properties: {
      seq: i,
      // Numbers for most of the file, text near its end: the column must be text.
      code: i < 11_000 ? i * 10 : `C-${i}`,
      // Only the last features carry this property.
      ...(i >= 12_000 ? { late: `late ${i}` } : {}),
    },
    geometry: { type: 'Point', coordinates: [-87.9 + (i % 100) * 0.004, 41.7 + Math.floor(i / 100) * 0.002] },
  }));
  return JSON.stringify({ type: 'FeatureCollection', features });
}

describe('a GeoJSON file larger than the planning sample', () => {
  const name = uniqueName('geojson_stream');
  let status: Record<string, any>;
  let analyzed: Record<string, any>;

  beforeAll(async () => {
    const token = await adminToken();
    const dir = mkdtempSync(join(tmpdir(), 'geojson-stream-'));
    const path = join(dir, 'generated.geojson');
    writeFileSync(path, generatedCollection());
    analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'geojson' },
      { name: 'generated.geojson', path },
    );
    const owner = stack().admin.username;
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      { token, filetype: 'geojson', publishParameters: JSON.stringify({ name }) },
      { name: 'generated.geojson', path },
    );
    const service = res.services?.[0];
    if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
    status = await waitForJob(token, owner, service.serviceItemId, service.jobId, 180_000);
  }, 240_000);

  it('analyze describes the whole file and returns sample records', () => {
    const fields = analyzed.publishParameters.layerInfo.fields;
    const types = Object.fromEntries(fields.map((f: any) => [f.name, f.type]));
    expect(types).toMatchObject({
      seq: 'esriFieldTypeInteger',
      code: 'esriFieldTypeString',
      late: 'esriFieldTypeString',
    });
    expect(analyzed.publishParameters.layerInfo.geometryType).toBe('esriGeometryPoint');
    expect(analyzed.records[0]).toMatchObject({ seq: 0, code: '0' });
  });

  it('loads every feature', async () => {
    expect(status.status).toBe('completed');
    const res = await call(`${featureServer(name)}/0/query`, {
      token: await adminToken(),
      where: '1=1',
      returnCountOnly: 'true',
    });
    expect(res.json).toEqual({ count: COUNT });
  });

  it('makes fields of properties seen only after the sample, and text of columns that turn to text', async () => {
    const layer = (await call(`${featureServer(name)}/0`, { token: await adminToken() }, { method: 'GET' }))
      .json;
    const types = Object.fromEntries(layer.fields.map((f: any) => [f.name, f.type]));
    expect(types.seq).toBe('esriFieldTypeInteger');
    expect(types.code).toBe('esriFieldTypeString');
    expect(types.late).toBe('esriFieldTypeString');
    const res = await call(`${featureServer(name)}/0/query`, {
      token: await adminToken(),
      where: 'seq IN (5, 12001)',
      outFields: 'seq,code,late',
      orderByFields: 'seq',
      returnGeometry: 'false',
    });
    expect(res.json.features.map((f: any) => f.attributes)).toEqual([
      { OBJECTID: 6, seq: 5, code: '50', late: null },
      { OBJECTID: 12002, seq: 12001, code: 'C-12001', late: 'late 12001' },
    ]);
  });
});
