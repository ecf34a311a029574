import { describe, expect, it } from 'vitest';
import { addressRoleOf, detectLocationFields, nameTokens } from '../../../lib/ingest/location-fields.js';
import { fixtureRows } from './read-fixture.js';

describe('detectLocationFields', () => {
  it('finds latitude and longitude columns whose values are in range', () => {
    const { headers, rows } = fixtureRows('transit-stations.csv');
    const d = detectLocationFields(headers, rows);
    expect(d).toMatchObject({
      locationType: 'coordinates',
      latitudeFieldName: 'Latitude',
      longitudeFieldName: 'Longitude',
      coordinateFieldType: 'LatitudeAndLongitude',
      needsSourceSR: false,
    });
  });

  it('finds X/Y columns of projected values and says a sourceSR is needed', () => {
    const { headers, rows } = fixtureRows('british-grid-points.csv');
    const d = detectLocationFields(headers, rows);
    expect(d.locationType).toBe('coordinates');
    expect([d.longitudeFieldName, d.latitudeFieldName]).toEqual(['X', 'Y']);
    expect(d.needsSourceSR).toBe(true);
    expect(d.notes.join(' ')).toContain('sourceSR');
  });

  it('reads decimal-comma coordinates when told to', () => {
    const { headers, rows } = fixtureRows('french-cities-semicolon.csv', ';');
    expect(detectLocationFields(headers, rows).locationType).toBe('none');
    expect(detectLocationFields(headers, rows, { decimalComma: true })).toMatchObject({
      locationType: 'coordinates',
      latitudeFieldName: 'Latitude',
      longitudeFieldName: 'Longitude',
    });
  });

  it('matches coordinate names case-insensitively, including the Esri list spellings', () => {
    const rows = [{ POINT_Y: '41.9', Point_X: '-87.6' }];
    expect(detectLocationFields(['POINT_Y', 'Point_X'], rows)).toMatchObject({
      latitudeFieldName: 'POINT_Y',
      longitudeFieldName: 'Point_X',
    });
  });

  it('still finds a point file when a few sample rows have broken coordinates, and says how many', () => {
    const rows = [
      { lat: '41.88', lon: '-87.63' },
      { lat: 'N/A', lon: '-87.62' },
      { lat: '41.90', lon: '-87.64' },
      { lat: '999', lon: '-87.65' },
      { lat: '41.95', lon: '-87.66' },
    ];
    const d = detectLocationFields(['lat', 'lon'], rows);
    expect(d).toMatchObject({ locationType: 'coordinates', latitudeFieldName: 'lat', needsSourceSR: false });
    expect(d.notes).toEqual(['2 sample rows have no usable coordinates.']);
  });

  it('does not take a pair that is broken in most rows', () => {
    const rows = [
      { lat: 'N/A', lon: '-87.62' },
      { lat: '', lon: 'unknown' },
      { lat: '41.9', lon: '-87.6' },
    ];
    expect(detectLocationFields(['lat', 'lon'], rows).locationType).toBe('none');
  });

  it('does not take a coordinate-named column holding text', () => {
    const rows = [{ lat: 'north', lon: '-87.6' }];
    expect(detectLocationFields(['lat', 'lon'], rows).locationType).toBe('none');
  });

  it('finds the address roles of the analyze sample columns', () => {
    const { headers, rows } = fixtureRows('soil-relocation-sites.csv');
    const d = detectLocationFields(headers, rows);
    expect(d.locationType).toBe('address');
    expect(d.addressFields).toEqual({
      Address: 'A1-Address',
      City: 'A1-City',
      Region: 'A1-ProvinceState',
      Postal: 'A1-PostalZipCode',
      CountryCode: 'A1-Country',
    });
  });

  it('reports none when there is neither coordinates nor address', () => {
    const d = detectLocationFields(['id', 'value'], [{ id: '1', value: '2' }]);
    expect(d.locationType).toBe('none');
    expect(d.addressFields).toEqual({});
  });
});

describe('address roles by column name', () => {
  it('splits names into words at separators and case changes', () => {
    expect(nameTokens('A1-ProvinceState')).toEqual(['a1', 'province', 'state']);
    expect(nameTokens('street_address')).toEqual(['street', 'address']);
  });

  it.each([
    ['Address', 'Address'],
    ['STREET', 'Address'],
    ['Town', 'City'],
    ['state', 'Region'],
    ['Province', 'Region'],
    ['zip', 'Postal'],
    ['PostCode', 'Postal'],
    ['Country', 'CountryCode'],
  ])('gives %s the role %s', (name, role) => {
    expect(addressRoleOf(name)).toBe(role);
  });

  it('does not mistake e-mail or IP addresses, or real estate, for address columns', () => {
    expect(addressRoleOf('Contact Email')).toBeNull();
    expect(addressRoleOf('EmailAddress')).toBeNull();
    expect(addressRoleOf('ip_address')).toBeNull();
    expect(addressRoleOf('RealEstate')).toBeNull();
  });
});
