import { describe, expect, it } from 'vitest';
import { parseFileType, parsePublishParameters } from '../../../api/publish/publish-parameters.js';

const parse = (fileType: 'csv' | 'excel' | 'geojson' | 'shapefile', parameters: Record<string, unknown>) =>
  parsePublishParameters({ fileType, parameters, buildInitialCache: false, outputType: '' });

describe('parsePublishParameters', () => {
  it('defaults the spatial references to WGS84 in and Web Mercator out', () => {
    const r = parse('csv', { name: 'points', locationType: 'coordinates', layerInfo: { name: 'Points' } });
    expect(r.sourceSR).toBeNull();
    expect(r.targetSR).toEqual({ wkid: 102100, latestWkid: 3857 });
    expect(r.layers).toEqual([
      { id: 0, name: 'Points', location: { type: 'coordinates' }, layerInfo: { name: 'Points' } },
    ]);
  });

  it('reads property names case-insensitively and maps a tab delimiter', () => {
    const r = parse('csv', {
      Name: 'tsv',
      LOCATIONTYPE: 'none',
      layerinfo: { a: 1 },
      columndelimiter: 'tab',
      Qualifier: "'",
    });
    expect(r.csv).toEqual({ delimiter: '\t', qualifier: "'" });
    expect(r.layers[0].location).toEqual({ type: 'none' });
  });

  it('carries the service properties of section 2.8', () => {
    const r = parse('csv', {
      name: 'svc',
      locationType: 'none',
      layerInfo: { capabilities: 'Query,Extract' },
      description: 'About',
      copyrightText: '(c) City',
      maxRecordCount: 500,
      hasStaticData: true,
      editorTrackingInfo: { enableEditorTracking: true, allowOthersToQuery: 'yes' },
      persistErrorRecordsForReview: true,
    });
    expect(r.service).toMatchObject({
      description: 'About',
      copyrightText: '(c) City',
      maxRecordCount: 500,
      hasStaticData: true,
      capabilities: 'Query,Extract',
      editorTrackingInfo: { enableEditorTracking: true },
    });
    expect(r.persistErrorRecordsForReview).toBe(true);
  });

  it('reads address fields and a country for geocoding', () => {
    const r = parse('csv', {
      name: 'addresses',
      locationType: 'address',
      addressFields: { address: 'Street', City: 'Town' },
      sourceCountry: 'US',
      layerInfo: { a: 1 },
    });
    expect(r.layers[0].location).toEqual({
      type: 'address',
      addressFields: { Address: 'Street', City: 'Town' },
      sourceCountry: 'US',
    });
  });

  it('makes one layer per sheet entry for a workbook', () => {
    const r = parse('excel', {
      name: 'book',
      layers: [
        { excelSheetId: 0, name: 'First', locationType: 'coordinates' },
        { sheetName: 'Other', locationType: 'none' },
      ],
    });
    expect(r.layers.map((l) => [l.id, l.name, l.sheet, l.location.type])).toEqual([
      [0, 'First', 0, 'coordinates'],
      [1, 'book_1', 'Other', 'none'],
    ]);
  });

  it('refuses a service name with characters a URL path would mangle', () => {
    expect(() => parse('geojson', { name: 'my service!' })).toThrow(/Invalid publishParameters/);
  });

  it('refuses a csv without layerInfo', () => {
    expect(() => parse('csv', { name: 'x', locationType: 'none' })).toThrow(/Invalid publishParameters/);
  });

  it('refuses a maxRecordCount of zero', () => {
    expect(() => parse('geojson', { name: 'x', maxRecordCount: 0 })).toThrow(/Invalid publishParameters/);
  });
});

describe('parseFileType', () => {
  it('takes spreadsheet as excel and refuses the tile issue types', () => {
    expect(parseFileType('Spreadsheet')).toBe('excel');
    expect(() => parseFileType('featureService')).toThrow(/Invalid or missing input parameters/);
  });
});
