import { describe, expect, it } from 'vitest';
import { inferFields } from '../../../lib/ingest/infer-fields.js';
import { toLayerFields } from '../../../lib/ingest/layer-fields.js';
import { detectLocationFields } from '../../../lib/ingest/location-fields.js';
import { fixtureRows } from './read-fixture.js';

describe('toLayerFields', () => {
  const { headers, rows } = fixtureRows('soil-relocation-sites.csv');
  const fields = inferFields(rows, { headers });
  const location = detectLocationFields(headers, rows);
  const layerFields = toLayerFields(fields, location.addressFields);

  it('gives string fields the shape analyze returns', () => {
    expect(layerFields.find((f) => f.alias === 'A1-Address')).toEqual({
      name: 'A1_Address',
      type: 'esriFieldTypeString',
      alias: 'A1-Address',
      sqlType: 'sqlTypeNVarchar',
      length: 256,
      nullable: true,
      editable: true,
      domain: null,
      defaultValue: null,
      locationType: 'Address',
    });
  });

  it('tags each address column with its geocoding role and others as unknown', () => {
    expect(layerFields.map((f) => [f.name, f.locationType])).toEqual([
      ['Site_Name', 'unknown'],
      ['A1_Address', 'Address'],
      ['A1_City', 'City'],
      ['A1_ProvinceState', 'Region'],
      ['A1_PostalZipCode', 'Postal'],
      ['A1_Country', 'CountryCode'],
      ['Contact_Email', 'unknown'],
      ['Volume_m3', 'unknown'],
      ['Start_Date', 'unknown'],
    ]);
  });

  it('maps numeric and date types to their sqlTypes and gives them no length', () => {
    const volume = layerFields.find((f) => f.name === 'Volume_m3');
    const start = layerFields.find((f) => f.name === 'Start_Date');
    expect([volume?.type, volume?.sqlType, volume?.length]).toEqual([
      'esriFieldTypeDouble',
      'sqlTypeDouble',
      undefined,
    ]);
    expect([start?.type, start?.sqlType]).toEqual(['esriFieldTypeDate', 'sqlTypeTimestamp2']);
    expect(toLayerFields([{ ...fields[0], type: 'esriFieldTypeInteger' }])[0].sqlType).toBe('sqlTypeInteger');
  });
});
