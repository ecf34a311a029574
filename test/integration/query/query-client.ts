import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitForJob } from '../publish/publish-client.js';
import { call, stack } from '../support/portal-client.js';

/** Publishing the query-parameter fixtures, and reading them back as the tests' own expectations. */
export const fixturePath = (name: string) =>
  join(import.meta.dirname, '..', '..', 'fixtures', 'query-params', name);

export async function publishFixture(
  token: string,
  fileName: string,
  filetype: string,
  publishParameters: Record<string, unknown>,
): Promise<void> {
  const owner = stack().admin.username;
  const form = new FormData();
  form.set('f', 'json');
  form.set('token', token);
  form.set('filetype', filetype);
  form.set('publishParameters', JSON.stringify(publishParameters));
  form.set('file', new Blob([readFileSync(fixturePath(fileName))]), fileName);
  const res = (await (
    await fetch(`${stack().baseUrl}/sharing/rest/content/users/${owner}/publish`, {
      method: 'POST',
      body: form,
    })
  ).json()) as Record<string, any>;
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
  if (status.status !== 'completed') throw new Error(`publish job: ${JSON.stringify(status)}`);
}

export interface Station {
  Name: string;
  Kind: string;
  Riders: number;
  Opened: number;
  Closed: number | null;
  lon: number;
  lat: number;
}

/** stations.csv, parsed here (not by the product): the source of every expected value. */
export function readStations(): Station[] {
  const [, ...lines] = readFileSync(fixturePath('stations.csv'), 'utf8').trim().split('\n');
  const day = (s: string) => (s ? Date.parse(`${s}T00:00:00Z`) : null);
  return lines.map((line) => {
    const [Name, Kind, Riders, Opened, Closed, lon, lat] = line.split(',');
    return {
      Name,
      Kind,
      Riders: Number(Riders),
      Opened: day(Opened)!,
      Closed: day(Closed),
      lon: Number(lon),
      lat: Number(lat),
    };
  });
}

export const stationParameters = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  locationType: 'coordinates',
  latitudeFieldName: 'Latitude',
  longitudeFieldName: 'Longitude',
  ...extra,
  layerInfo: { capabilities: 'Query', ...((extra.layerInfo as object) ?? {}) },
});

/** A GET query of a layer; returns the parsed JSON body. */
export async function query(layerUrl: string, token: string, params: Record<string, string>) {
  return (await call(`${layerUrl}/query`, { token, ...params }, { method: 'GET' })).json;
}

/** The sorted values of one attribute over a query's features. */
export const namesOf = (body: Record<string, any>): string[] =>
  (body.features as { attributes: { Name: string } }[]).map((f) => f.attributes.Name).sort();
