import { fail, present, readInteger } from './parameter-values.js';

/** `resultOffset`: rows to skip, default 0. */
export function normalizeResultOffset(value: string | undefined): number {
  const text = present(value);
  return text === undefined ? 0 : readInteger('resultOffset', text, 0);
}

/** `resultRecordCount`: rows wanted; the layer's maxRecordCount still caps it in the plan. */
export function normalizeResultRecordCount(value: string | undefined): number | null {
  const text = present(value);
  return text === undefined ? null : readInteger('resultRecordCount', text, 1);
}

/**
 * `maxRecordCountFactor`: ArcGIS lets a client raise the page size to maxRecordCount × factor, for a
 * factor from 1 to 5 (the Maps SDK for JavaScript asks 4 when it draws). Default 1.
 */
export function normalizeMaxRecordCountFactor(value: string | undefined): number {
  const text = present(value);
  if (text === undefined) return 1;
  const factor = readInteger('maxRecordCountFactor', text, 1);
  if (factor > 5)
    throw fail('maxRecordCountFactor', `'${text}' is more than 5, the largest factor ArcGIS allows`);
  return factor;
}

/** `resultType`: none (or absent), standard or tile; anything else is refused by name. */
export function normalizeResultType(value: string | undefined): { resultType?: 'standard' | 'tile' } {
  const text = present(value)?.toLowerCase();
  if (text === undefined || text === 'none') return {};
  if (text === 'standard' || text === 'tile') return { resultType: text };
  throw fail('resultType', `'${value}' is not one of none, standard, tile`);
}
