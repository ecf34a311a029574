import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, stack } from '../support/portal-client.js';

/** Helpers for the geocoding tests: the World GeocodeServer of the running product. */
export const GEOCODE = '/rest/services/World/GeocodeServer';

export const geocodeFixture = (name: string) =>
  join(import.meta.dirname, '..', '..', 'fixtures', 'geocode', name);

export const geocodeEndpoint = () => `${stack().baseUrl}${GEOCODE}`;

export const findCandidates = (params: Record<string, string>) =>
  call(`${GEOCODE}/findAddressCandidates`, params, { method: 'GET' });

/** geocodeAddresses over a form POST, records given as their attributes. */
export const geocodeAddresses = (records: Record<string, unknown>[], params: Record<string, string> = {}) =>
  call(`${GEOCODE}/geocodeAddresses`, {
    addresses: JSON.stringify({ records: records.map((attributes) => ({ attributes })) }),
    ...params,
  });

/** POSTs loadAddressPoints as multipart: a fixture file as `file`, or only fields (itemId). */
export async function loadAddressPoints(
  fields: Record<string, string>,
  fileName?: string,
): Promise<Record<string, any>> {
  const form = new FormData();
  form.set('f', 'json');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (fileName) form.set('file', new Blob([readFileSync(geocodeFixture(fileName))]), fileName);
  const res = await fetch(`${stack().baseUrl}${GEOCODE}/loadAddressPoints`, { method: 'POST', body: form });
  return (await res.json()) as Record<string, any>;
}

/** Distance in metres between two WGS84 points (equirectangular: fine at city scale). */
export function metresBetween(a: { x: number; y: number }, b: { x: number; y: number }): number {
  const k = Math.PI / 180;
  const dx = (a.x - b.x) * k * Math.cos(((a.y + b.y) / 2) * k);
  const dy = (a.y - b.y) * k;
  return Math.hypot(dx, dy) * 6_371_000;
}
