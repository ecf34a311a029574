/**
 * A returnIdsOnly answer streamed to the client as it is read from the database (lib/query/ids-json.ts):
 * f=json, pjson and geojson and JSONP alike, with backpressure (a batch is read only when the client
 * has taken the previous one) and the database reads stopped when the client goes away. Errors found
 * before the first byte are thrown by the caller as usual; a failure mid-answer can no longer become an
 * envelope, so the connection is broken off and the client sees a truncated body, never a short list
 * that looks complete.
 */
import type { Context } from 'hono';
import { badRequest } from '../lib/errors.js';
import { idsJsonText } from '../lib/query/ids-json.js';
import type { AppEnv } from './env.js';
import { CALLBACK, errorEnvelope, JSON_FORMATS } from './render.js';

export interface IdsAnswer {
  objectIdFieldName: string;
  batches: AsyncIterable<readonly number[]>;
}

export function sendIdsStream(c: Context<AppEnv>, answer: IdsAnswer): Response {
  const params = c.get('params');
  const raw = (params?.get('f') ?? 'json').toLowerCase();
  if (!JSON_FORMATS.has(raw) || raw === 'html') {
    const e = badRequest('Invalid or missing input parameters.', [
      `'f' does not support the value '${raw}' here.`,
    ]);
    return c.json(errorEnvelope(e), 200);
  }
  const requested = params?.get('callback');
  const callback = requested && CALLBACK.test(requested) ? requested : undefined;
  const text = idsJsonText(answer.objectIdFieldName, answer.batches, { pretty: raw === 'pjson', callback });
  const encoder = new TextEncoder();
  const log = c.get('deps').log;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await text.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        log.warn('returnIdsOnly answer broken off', { error: String(e) });
        controller.error(e);
      }
    },
    async cancel() {
      await text.return(undefined);
    },
  });
  const type = callback
    ? 'application/javascript'
    : raw === 'geojson'
      ? 'application/geo+json'
      : 'application/json';
  return c.body(body, 200, { 'Content-Type': `${type}; charset=utf-8` });
}
