import { bulkGeocode, geocode, getGeocodeService } from '@esri/arcgis-rest-geocoding';
import { describe, expect, it } from 'vitest';
import { call, stack } from '../support/portal-client.js';
import {
  findCandidates,
  GEOCODE,
  geocodeAddresses,
  geocodeEndpoint,
  metresBetween,
} from './geocode-client.js';

describe('the World GeocodeServer of the running product', () => {
  it('describes itself with the batch size and the address fields', async () => {
    const res = await call(GEOCODE, {}, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.json.locatorProperties.MaxBatchSize).toBe(1000);
    expect(res.json.singleLineAddressField.name).toBe('SingleLine');
    expect(res.json.addressFields.map((f: any) => f.name)).toEqual(
      expect.arrayContaining(['Address', 'City', 'Region', 'Postal', 'CountryCode']),
    );
  });

  it('answers an unknown service name with the Esri error envelope', async () => {
    const res = await call('/rest/services/Nowhere/GeocodeServer', {}, { method: 'GET' });
    expect(res.json.error.code).toBe(404);
  });

  it('findAddressCandidates finds a city with its region, tolerant of case and accents', async () => {
    const res = await findCandidates({ SingleLine: 'montreal, quebec', maxLocations: '3', outFields: '*' });
    const best = res.json.candidates[0];
    expect(best.address).toContain('Montréal');
    expect(best.attributes.Addr_type).toBe('Locality');
    expect(metresBetween(best.location, { x: -73.5878, y: 45.5088 })).toBeLessThan(20_000);
  });

  it('findAddressCandidates takes separate fields and answers in Web Mercator for outSR 3857', async () => {
    const res = await findCandidates({ Postal: '60601', CountryCode: 'US', outSR: '3857' });
    expect(res.json.spatialReference.latestWkid ?? res.json.spatialReference.wkid).toBe(3857);
    const best = res.json.candidates[0];
    expect(best.address).toContain('60601');
    expect(best.location.x).toBeCloseTo(-9_755_000, -4);
    expect(best.location.y).toBeCloseTo(5_144_000, -4);
  });

  it('geocodeAddresses matches records by OBJECTID and reports the unmatched one with status U', async () => {
    const res = await geocodeAddresses([
      { OBJECTID: 7, SingleLine: 'Lyon, France' },
      { OBJECTID: 8, City: 'Denver', Region: 'CO' },
      { OBJECTID: 9, SingleLine: 'Qwxzvbn Plkjhtr' },
    ]);
    const byId = new Map(res.json.locations.map((l: any) => [l.attributes.ResultID, l]));
    const lyon = byId.get(7) as any;
    expect(lyon.attributes.Status).toBe('M');
    expect(metresBetween(lyon.location, { x: 4.8467, y: 45.7485 })).toBeLessThan(20_000);
    expect((byId.get(8) as any).address).toContain('Denver');
    expect((byId.get(9) as any).attributes.Status).toBe('U');
  });

  it('geocodeAddresses refuses a record without an OBJECTID', async () => {
    const res = await geocodeAddresses([{ SingleLine: 'Lyon, France' }]);
    expect(res.json.error.code).toBe(400);
  });
});

describe('ArcGIS REST JS geocoding against the running product', () => {
  it('getGeocodeService reads the service the portal names in helperServices', async () => {
    const portal = await call('/sharing/rest/portals/self', {}, { method: 'GET' });
    const url = portal.json.helperServices.geocode[0].url as string;
    expect(url).toBe(`${stack().baseUrl}${GEOCODE}`);
    const service = await getGeocodeService({ endpoint: url });
    expect(service.capabilities).toContain('Geocode');
  });

  it('geocode() finds a city and returns it as GeoJSON too', async () => {
    const response = await geocode({ endpoint: geocodeEndpoint(), singleLine: 'Nairobi, Kenya' });
    const geometry = response.geoJson?.features[0]?.geometry as
      | { type: string; coordinates: number[] }
      | undefined;
    expect(geometry?.type).toBe('Point');
    const [lon, lat] = geometry?.coordinates ?? [Number.NaN, Number.NaN];
    expect(metresBetween({ x: lon, y: lat }, { x: 36.8167, y: -1.2833 })).toBeLessThan(20_000);
  });

  it('bulkGeocode() geocodes a batch and keeps the OBJECTIDs', async () => {
    const response = await bulkGeocode({
      endpoint: geocodeEndpoint(),
      addresses: [
        { OBJECTID: 1, postal: '10001', countryCode: 'US' },
        { OBJECTID: 2, city: 'Toronto', region: 'Ontario' },
      ],
    });
    const attributes = response.locations.map((l) => l.attributes as Record<string, unknown>);
    expect(attributes.map((a) => a.ResultID).sort()).toEqual([1, 2]);
    expect(attributes.map((a) => a.Status)).toEqual(['M', 'M']);
  });
});
