import { beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
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

describe('sourceLocale: a tab-delimited German file with decimal commas and day-first dates', () => {
  const file = 'wochenmaerkte-de-tab.csv';
  let token: string;
  beforeAll(async () => {
    token = await signIn();
  });
  const analyzeIn = (locale?: string) =>
    upload(
      '/sharing/rest/content/features/analyze',
      {
        token,
        filetype: 'csv',
        ...(locale ? { analyzeParameters: JSON.stringify({ sourceLocale: locale }) } : {}),
      },
      { name: file, path: fixture(file) },
    );

  it('analyze reads numbers and dates in the given locale, and as text or month-first without it', async () => {
    const german = await analyzeIn('de');
    expect(german.publishParameters.sourceLocale).toBe('de');
    expect(german.records[0]).toMatchObject({
      Markt: 'Viktualienmarkt',
      Flaeche: 22000.5,
      Breite: 48.1351,
      Eroeffnet: Date.UTC(2010, 4, 2),
    });
    const plain = await analyzeIn();
    expect(plain.records[0]).toMatchObject({ Flaeche: '22000,5', Eroeffnet: Date.UTC(2010, 1, 5) });
  });

  it('publish with sourceLocale de stores the decimal-comma values, the coordinates and day-first dates', async () => {
    const name = uniqueName('maerkte');
    const { status } = await publishFile(token, file, 'csv', {
      name,
      sourceLocale: 'de',
      locationType: 'coordinates',
      latitudeFieldName: 'Breite',
      longitudeFieldName: 'Laenge',
      layerInfo: { capabilities: 'Query' },
    });
    expect(status.status).toBe('completed');
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: 'Flaeche > 9000',
      outFields: 'Markt,Flaeche,Eroeffnet',
      orderByFields: 'Flaeche',
      outSR: '4326',
    });
    expect(res.json.features.map((f: any) => f.attributes)).toMatchObject([
      { Markt: 'Winterfeldtmarkt', Flaeche: 9500.25, Eroeffnet: Date.UTC(2011, 3, 7) },
      { Markt: 'Isemarkt', Flaeche: 12800, Eroeffnet: Date.UTC(2009, 5, 3) },
      { Markt: 'Viktualienmarkt', Flaeche: 22000.5, Eroeffnet: Date.UTC(2010, 4, 2) },
    ]);
    expect(res.json.features[2].geometry.y).toBeCloseTo(48.1351, 5);
    expect(res.json.features[2].geometry.x).toBeCloseTo(11.5763, 5);
  });

  it('publish with sourceLocale en-US reads the same dates month-first', async () => {
    const name = uniqueName('maerkte_us');
    const { status } = await publishFile(token, file, 'csv', {
      name,
      sourceLocale: 'en-US',
      locationType: 'none',
      layerInfo: { capabilities: 'Query' },
    });
    expect(status.status).toBe('completed');
    const res = await call(`${featureServer(name)}/0/query`, {
      token,
      where: "Markt = 'Viktualienmarkt'",
      outFields: 'Eroeffnet,Flaeche',
    });
    expect(res.json.features[0].attributes).toMatchObject({
      Eroeffnet: Date.UTC(2010, 1, 5),
      Flaeche: '22000,5',
    });
  });

  it('a sourceLocale that is not a locale tag is refused before anything is stored', async () => {
    const owner = stack().admin.username;
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      {
        token,
        filetype: 'csv',
        publishParameters: JSON.stringify({
          name: uniqueName('maerkte_bad'),
          sourceLocale: 'not a locale!',
          locationType: 'none',
          layerInfo: { capabilities: 'Query' },
        }),
      },
      { name: file, path: fixture(file) },
    );
    expect(res.error?.code).toBe(400);
    expect(res.error?.details?.[0]).toContain('sourceLocale');
  });
});
