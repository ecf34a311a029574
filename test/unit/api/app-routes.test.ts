import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostedPoints, openHostedPoints } from './hosted-points.js';

// A few routes of every surface through app.request() on PGlite: the composed app, no socket.
describe('the composed app on PGlite', () => {
  let hosted: HostedPoints;
  beforeAll(async () => {
    hosted = await openHostedPoints();
  }, 120_000);
  afterAll(async () => hosted.close());

  it('lists the public feature service in the Hosted folder', async () => {
    const res = await hosted.app.request('/rest/services/Hosted?f=json');
    const body = (await res.json()) as { services: { name: string; type: string }[] };
    expect(body.services).toContainEqual({ name: 'Hosted/points', type: 'FeatureServer' });
  });

  it('serves the SOAP WSDL of the service, naming its endpoint', async () => {
    const res = await hosted.app.request('http://gis.test/services/Hosted/points/MapServer?wsdl');
    const wsdl = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('xml');
    expect(wsdl).toContain('http://gis.test/services/Hosted/points/MapServer');
  });

  it('answers the SOAP surface with a fault, not the REST envelope', async () => {
    const res = await hosted.app.request('/services/Hosted/points/MapServer');
    expect(await res.text()).toContain('Send SOAP requests with POST');
  });

  it('answers an unknown path with a 404 in the REST envelope', async () => {
    const res = await hosted.app.request('/rest/services/Hosted/points/NoSuchServer');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(404);
  });

  it('asks for a token where the portal requires one', async () => {
    const res = await hosted.app.request('/sharing/rest/community/self?f=json');
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(499);
  });
});
