import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleCorsHeaders } from '../../../api/cors.js';
import { type HostedPoints, openHostedPoints } from './hosted-points.js';

// The lean tile path writes simpleCorsHeaders itself; they must be what the app's cors() middleware adds.
describe('the CORS headers of answers written without the middleware', () => {
  let hosted: HostedPoints;
  beforeAll(async () => {
    hosted = await openHostedPoints();
  }, 120_000);
  afterAll(async () => hosted.close());

  const pairs = (list: string[]) =>
    Object.fromEntries(list.flatMap((v, i) => (i % 2 === 0 ? [[v.toLowerCase(), list[i + 1]]] : [])));

  for (const origin of ['https://maps.example.com', undefined]) {
    it(`match the middleware's for ${origin ? 'a page on another origin' : 'a request without Origin'}`, async () => {
      const res = await hosted.app.request('/rest/services/Hosted/points/FeatureServer', {
        headers: origin ? { Origin: origin } : {},
      });
      const expected = pairs(simpleCorsHeaders(origin));
      const actual = Object.fromEntries(Object.keys(expected).map((name) => [name, res.headers.get(name)]));
      expect(actual).toEqual(expected);
      expect(expected['access-control-allow-origin']).toBe(origin ?? '*');
    });
  }
});
