import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { CellValue } from '../../../lib/ingest/field-types.js';

export const fixtureBytes = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../fixtures/ingest/${name}`, import.meta.url)));

export const fixtureText = (name: string): string =>
  readFileSync(new URL(`../../fixtures/ingest/${name}`, import.meta.url), 'utf8');

/** Rows of a fixture as records of text, parsed the way the CSV loader parses uploads. */
export function fixtureRows(
  name: string,
  delimiter = ',',
): { headers: string[]; rows: Record<string, CellValue>[] } {
  const parsed = Papa.parse<Record<string, string>>(fixtureText(name), {
    header: true,
    delimiter,
    skipEmptyLines: true,
  });
  return { headers: parsed.meta.fields ?? [], rows: parsed.data };
}
