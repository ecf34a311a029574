import { readFileSync } from 'node:fs';
import type { QueryParams } from '../../../lib/query/normalize/parameter-values.js';

/** Query parameters as rest-js and map clients send them, from the fixture file, names lower-cased. */
const requests = JSON.parse(
  readFileSync(new URL('../../fixtures/query/rest-js-requests.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, string>>;

export function restJsRequest(name: string, extra: Record<string, string> = {}): QueryParams {
  const request = requests[name];
  if (!request) throw new Error(`no request named ${name} in the fixture`);
  return Object.fromEntries(Object.entries({ ...request, ...extra }).map(([k, v]) => [k.toLowerCase(), v]));
}
