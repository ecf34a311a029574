/** Item properties from addItem and update parameters, validated; only supplied properties are returned. */
import type { NewItem } from '../../db/repositories/items.js';
import { badRequest } from '../../lib/errors.js';
import type { RequestParams } from '../params.js';
import { commaList } from './group-params.js';

const TEXT_FIELDS = [
  ['title', 'title', 250],
  ['type', 'type', 250],
  ['snippet', 'snippet', 2048],
  ['description', 'description', 64_000],
  ['accessInformation', 'accessInformation', 64_000],
  ['licenseInfo', 'licenseInfo', 64_000],
  ['culture', 'culture', 32],
  ['spatialReference', 'spatialReference', 1024],
] as const;

function readExtent(raw: string): number[][] | null {
  if (raw.trim() === '') return null;
  const numbers = raw.split(',').map((s) => Number(s.trim()));
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n))) {
    throw badRequest('Invalid or missing input parameters.', ["'extent' must be xmin,ymin,xmax,ymax."]);
  }
  return [
    [numbers[0]!, numbers[1]!],
    [numbers[2]!, numbers[3]!],
  ];
}

function readProperties(raw: string): Record<string, unknown> | null {
  if (raw.trim() === '') return null;
  try {
    const value = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // reported below
  }
  throw badRequest('Invalid or missing input parameters.', ["'properties' must be a JSON object."]);
}

function readUrl(raw: string): string | null {
  if (raw.trim() === '') return null;
  try {
    const url = new URL(raw.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // reported below
  }
  throw badRequest('Invalid or missing input parameters.', ["'url' must be an http or https URL."]);
}

export function readItemProperties(params: RequestParams): Partial<NewItem> {
  const item: Partial<NewItem> = {};
  const problems: string[] = [];
  for (const [param, field, max] of TEXT_FIELDS) {
    const value = params.get(param);
    if (value === undefined) continue;
    if (value.length > max) problems.push(`'${param}' must be at most ${max} characters.`);
    item[field] = value.trim();
  }
  if (problems.length > 0) throw badRequest('Invalid or missing input parameters.', problems);
  if (params.has('tags')) item.tags = commaList(params.get('tags'));
  if (params.has('typeKeywords')) item.typeKeywords = commaList(params.get('typeKeywords'));
  if (params.has('categories')) item.categories = commaList(params.get('categories'));
  const extent = params.get('extent');
  if (extent !== undefined) item.extent = readExtent(extent);
  const properties = params.get('properties');
  if (properties !== undefined) item.properties = readProperties(properties);
  const url = params.get('url');
  if (url !== undefined) item.url = readUrl(url);
  return item;
}
