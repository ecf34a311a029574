import type { Context } from 'hono';
import { toGeoError } from '../../lib/errors.js';

/**
 * The Esri JSON error envelope for the GeocodeServer surface, kept local until the shared REST
 * renderer exists (swap this one call for it then). ArcGIS answers errors with HTTP 200 and the code
 * inside the body; clients such as rest-js read the body, not the status.
 */
export function renderGeocodeError(c: Context, error: unknown, pretty = false): Response {
  const body = toGeoError(error).toBody();
  const payload = {
    error: {
      code: body.code,
      message: body.message,
      details: body.details,
      ...(body.messageCode ? { messageCode: body.messageCode } : {}),
    },
  };
  return c.body(JSON.stringify(payload, null, pretty ? 2 : undefined), 200, {
    'Content-Type': 'application/json; charset=utf-8',
  });
}

/** A successful JSON answer, indented for f=pjson. */
export function renderGeocodeJson(c: Context, value: unknown, pretty: boolean): Response {
  return c.body(JSON.stringify(value, null, pretty ? 2 : undefined), 200, {
    'Content-Type': 'application/json; charset=utf-8',
  });
}
