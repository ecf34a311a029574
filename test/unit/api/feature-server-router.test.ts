import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostedPoints, mercatorX, openHostedPoints } from './hosted-points.js';

// Route behaviour checked through app.request() on PGlite: no socket, no Temporal, no MinIO.
describe('FeatureServer routes on PGlite', () => {
  let hosted: HostedPoints;
  const get = async (path: string) => {
    const res = await hosted.app.request(`/rest/services/Hosted/points/FeatureServer${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    hosted = await openHostedPoints();
  }, 120_000);
  afterAll(async () => hosted.close());

  it('answers a where clause with the matching features and their stored coordinates', async () => {
    const { body } = await get("/0/query?where=Name%3D'east'&outFields=*");
    const features = body.features as { attributes: Record<string, unknown>; geometry: { x: number } }[];
    expect(features.map((f) => f.attributes)).toEqual([{ OBJECTID: 3, Name: 'east' }]);
    expect(features[0]!.geometry.x).toBeCloseTo(mercatorX(10), 3);
  });

  it('projects a filter envelope given in WGS84 into the storage reference', async () => {
    const envelope = encodeURIComponent(JSON.stringify({ xmin: 5, ymin: -1, xmax: 15, ymax: 1 }));
    const { body } = await get(`/0/query?geometry=${envelope}&inSR=4326&returnIdsOnly=true`);
    expect(body.objectIds).toEqual([3]);
  });

  it('tests a polygon filter exactly, not by its envelope alone', async () => {
    // A triangle whose envelope holds all three points but whose area holds only the origin's.
    const triangle = {
      rings: [
        [
          [-11, -1],
          [0, 5],
          [11, -1],
          [-11, -1],
        ].reverse(),
      ],
    };
    const { body } = await get(
      `/0/query?geometry=${encodeURIComponent(JSON.stringify(triangle))}&geometryType=esriGeometryPolygon&inSR=4326&returnIdsOnly=true`,
    );
    expect(body.objectIds).toEqual([2]);
  });

  it('renders f=geojson in WGS84 with the object id as each feature id', async () => {
    const { body } = await get("/0/query?where=Name%3D'west'&outFields=Name&f=geojson");
    const [feature] = body.features as {
      id: number;
      geometry: { coordinates: number[] };
      properties: unknown;
    }[];
    expect(feature!.id).toBe(1);
    expect(feature!.properties).toEqual({ OBJECTID: 1, Name: 'west' });
    expect(feature!.geometry.coordinates[0]).toBeCloseTo(-10, 9);
    expect(feature!.geometry.coordinates[1]).toBeCloseTo(0, 9);
  });

  it('answers a single feature by object id', async () => {
    const { body } = await get('/0/2');
    expect((body.feature as { attributes: unknown }).attributes).toEqual({ OBJECTID: 2, Name: 'origin' });
  });

  it('names a missing layer in the error envelope with HTTP 200', async () => {
    const { status, body } = await get('/7/query?where=1%3D1');
    expect(status).toBe(200);
    expect(body.error).toMatchObject({ code: 400, details: ['Layer 7 does not exist.'] });
  });

  it('answers an unknown service as not found', async () => {
    const res = await hosted.app.request('/rest/services/Hosted/nothing/FeatureServer/0/query');
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 400,
      details: ['Service not found or not started.'],
    });
  });
});
