import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '../portal/portal-helpers.js';
import { signIn, stack } from '../support/portal-client.js';
import {
  findCandidates,
  geocodeAddresses,
  geocodeFixture,
  loadAddressPoints,
  metresBetween,
} from './geocode-client.js';

const HAWTHORNE = { x: -122.6285, y: 45.5122 };

describe('an administrator loads address points and the running locator matches street addresses', () => {
  let token: string;
  beforeAll(async () => {
    token = await signIn();
  });

  it('refuses a caller without a token', async () => {
    const res = await loadAddressPoints({}, 'openaddresses-portland.csv');
    expect(res.error.code).toBe(499);
  });

  it('refuses a signed-in user who is not an administrator', async () => {
    const user = await newUser();
    const res = await loadAddressPoints({ token: user.token }, 'openaddresses-portland.csv');
    expect(res.error.code).toBe(403);
  });

  it('an uploaded CSV is stored and its street address matches at once', async () => {
    const address = { SingleLine: '3400 SE Hawthorne Blvd, Portland, OR 97214', outFields: '*' };
    const before = await findCandidates(address);
    expect(before.json.candidates[0]?.attributes.Addr_type).not.toBe('PointAddress');

    const loaded = await loadAddressPoints({ token, countryCode: 'US' }, 'openaddresses-portland.csv');
    expect(loaded).toMatchObject({ success: true, source: 'openaddresses-portland.csv', loaded: 4 });

    const after = await findCandidates(address);
    const best = after.json.candidates[0];
    expect(best.attributes.Addr_type).toBe('PointAddress');
    expect(best.score).toBeGreaterThanOrEqual(90);
    expect(metresBetween(best.location, HAWTHORNE)).toBeLessThan(30);
  });

  it('a CSV item named by itemId is loaded too, and geocodeAddresses matches its addresses', async () => {
    const form = new FormData();
    form.set('f', 'json');
    form.set('token', token);
    form.set('type', 'CSV');
    form.set('title', 'Boston address points');
    form.set('file', new Blob([readFileSync(geocodeFixture('openaddresses-boston.csv'))]), 'boston.csv');
    const owner = stack().admin.username;
    const added = (await (
      await fetch(`${stack().baseUrl}/sharing/rest/content/users/${owner}/addItem`, {
        method: 'POST',
        body: form,
      })
    ).json()) as Record<string, any>;
    expect(added.success).toBe(true);

    const loaded = await loadAddressPoints({ token, itemId: added.id });
    expect(loaded).toMatchObject({ success: true, source: added.id, loaded: 3 });

    const res = await geocodeAddresses([
      { OBJECTID: 1, Address: '200 Newbury St', City: 'Boston', Region: 'MA', Postal: '02116' },
    ]);
    const [location] = res.json.locations;
    expect(location.attributes.Status).toBe('M');
    expect(location.attributes.Addr_type).toBe('PointAddress');
    expect(metresBetween(location.location, { x: -71.0775, y: 42.3505 })).toBeLessThan(30);
  });

  it('a file without the LON, LAT, NUMBER and STREET columns is refused', async () => {
    const res = await loadAddressPoints({ token }, '../publish/chicago-libraries.csv');
    expect(res.error.code).toBe(400);
    expect(res.error.message).toContain('LON, LAT, NUMBER and STREET');
  });
});
