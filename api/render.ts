/**
 * The REST wire format: JSON (f=json), pretty JSON (f=pjson), JSONP with `callback`, and errors rendered
 * once as the Esri envelope `{"error":{...}}` with HTTP 200, as the real portal does.
 */
import type { Context } from 'hono';
import { badRequest, type ErrorBody, type GeoError } from '../lib/errors.js';
import type { AppEnv } from './env.js';
import { sendDirectoryPage } from './html/directory-pages.js';

export const CALLBACK = /^[A-Za-z_$][\w$.]{0,99}$/;

export type Format = 'json' | 'pjson' | 'geojson';

/** Reads `f`; a missing `f` means JSON, and `html` is answered by sendJson with the resource's page. */
export function format(c: Context<AppEnv>, allowed: Format[] = ['json', 'pjson']): Format {
  const raw = (c.get('params')?.get('f') ?? 'json').toLowerCase();
  const f = raw === '' || raw === 'html' ? 'json' : raw;
  if (!(allowed as string[]).includes(f)) {
    throw badRequest('Invalid or missing input parameters.', [`'f' must be one of ${allowed.join(', ')}.`]);
  }
  return f as Format;
}

export const JSON_FORMATS = new Set(['', 'json', 'pjson', 'html', 'geojson']);

export function sendJson(c: Context<AppEnv>, body: unknown, status: 200 | 400 | 404 | 405 | 413 | 500 = 200) {
  const params = c.get('params');
  const raw = (params?.get('f') ?? 'json').toLowerCase();
  if (!JSON_FORMATS.has(raw)) {
    const e = badRequest('Invalid or missing input parameters.', [
      `'f' does not support the value '${raw}' here.`,
    ]);
    return c.json(errorEnvelope(e), 200);
  }
  if (raw === 'html') return sendDirectoryPage(c, body);
  const text = raw === 'pjson' ? JSON.stringify(body, null, 2) : JSON.stringify(body);
  const callback = params?.get('callback');
  if (callback && CALLBACK.test(callback)) {
    return c.body(`${callback}(${text});`, status, {
      'Content-Type': 'application/javascript; charset=utf-8',
    });
  }
  const type = raw === 'geojson' ? 'application/geo+json' : 'application/json';
  return c.body(text, status, { 'Content-Type': `${type}; charset=utf-8` });
}

export function errorEnvelope(e: GeoError): { error: Omit<ErrorBody, 'extra'> & Record<string, unknown> } {
  const { extra, ...rest } = e.toBody();
  return { error: { ...rest, ...extra } };
}

export function sendError(c: Context<AppEnv>, e: GeoError) {
  // A binary format (f=pbf) has no error message of its own: ArcGIS answers its errors in JSON.
  const raw = (c.get('params')?.get('f') ?? 'json').toLowerCase();
  if (!JSON_FORMATS.has(raw)) return c.json(errorEnvelope(e), 200);
  return sendJson(c, errorEnvelope(e), 200);
}
