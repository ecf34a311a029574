/** The paging convention of portal listings: 1-based `start`, `num` up to 100, `nextStart` -1 at the end. */
import { badRequest } from '../../lib/errors.js';
import type { RequestParams } from '../params.js';

export interface Page {
  start: number;
  num: number;
}

export function readPage(params: RequestParams, defaultNum = 10, maxNum = 100): Page {
  const start = readInteger(params, 'start', 1);
  const num = readInteger(params, 'num', defaultNum);
  if (start < 1) throw badRequest('Invalid or missing input parameters.', ["'start' must be 1 or more."]);
  if (num < 0) throw badRequest('Invalid or missing input parameters.', ["'num' must not be negative."]);
  return { start, num: Math.min(num, maxNum) };
}

function readInteger(params: RequestParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  // Safe integers only: 1e20 is an integer to JavaScript, and no database offset or limit.
  if (!Number.isSafeInteger(value)) {
    throw badRequest('Invalid or missing input parameters.', [
      `'${name}' must be an integer of at most ${Number.MAX_SAFE_INTEGER}.`,
    ]);
  }
  return value;
}

/** total/start/num/nextStart for a page of `shown` results out of `total`. */
export function pageInfo(page: Page, total: number, shown: number) {
  const next = page.start + shown;
  return { total, start: page.start, num: shown, nextStart: shown > 0 && next <= total ? next : -1 };
}

/** `sortOrder` as asc or desc. */
export function readSortOrder(params: RequestParams): 'asc' | 'desc' {
  return params.get('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc';
}
