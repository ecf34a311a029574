import { present, readInteger } from './parameter-values.js';

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
