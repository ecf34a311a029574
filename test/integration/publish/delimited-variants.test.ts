import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../support/portal-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from './publish-client.js';

const analyzeFile = (token: string, file: string) =>
  upload(
    '/sharing/rest/content/features/analyze',
    { token, filetype: 'csv' },
    { name: file, path: fixture(file) },
  );

describe('semicolon-delimited French CSV files with decimal commas', () => {
  let token: string;
  beforeAll(async () => {
    token = await signIn();
  });

  it('analyze reads a UTF-8 file with a BOM: delimiter, encoding and the accented header', async () => {
    const res = await analyzeFile(token, 'villes-semicolon-bom.csv');
    expect(res.publishParameters.columnDelimiter).toBe(';');
    expect(res.publishParameters.encoding).toBe('utf-8-bom');
    expect(res.records[0]).toMatchObject({ Nom: 'Préfecture', Ville: 'Paris', Surface: 105.4 });
  });

  it('analyze reads a Latin-1 file and decodes its accents', async () => {
    const res = await analyzeFile(token, 'villes-semicolon-latin1.csv');
    expect(res.publishParameters.encoding).toBe('latin1');
    expect(res.records.map((r: any) => r.Nom)).toContain('Hôtel de Ville');
    expect(res.publishParameters.locationType).toBe('coordinates');
  });

  it('publishing the Latin-1 file stores the accented names and the decimal-comma coordinates', async () => {
    const analyzed = await analyzeFile(token, 'villes-semicolon-latin1.csv');
    const name = uniqueName('villes');
    const { status } = await publishFile(token, 'villes-semicolon-latin1.csv', 'csv', {
      ...analyzed.publishParameters,
      name,
    });
    expect(status.status).toBe('completed');
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: "Nom LIKE 'Ch%'",
      outFields: 'Nom,Surface',
      outSR: '4326',
    });
    expect(res.json.features).toHaveLength(1);
    expect(res.json.features[0].attributes).toMatchObject({ Nom: 'Château', Surface: 71.92 });
    expect(res.json.features[0].geometry.y).toBeCloseTo(43.7102, 5);
  });

  it('an explicit columnDelimiter and locationType none publish a table without geometry', async () => {
    const name = uniqueName('villes_table');
    const { status } = await publishFile(token, 'villes-semicolon-bom.csv', 'csv', {
      name,
      locationType: 'none',
      columnDelimiter: ';',
      layerInfo: { capabilities: 'Query' },
    });
    expect(status.status).toBe('completed');
    const layer = (await call(`${featureServer(name)}/0`, { token }, { method: 'GET' })).json;
    expect(layer.type).toBe('Table');
    expect(layer.geometryType).toBeUndefined();
    const count = await call(`${featureServer(name)}/0/query`, {
      token,
      where: 'Population > 400000',
      returnCountOnly: 'true',
    });
    expect(count.json.count).toBe(4);
  });
});
