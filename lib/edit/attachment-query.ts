/**
 * The attachment side of queryAttachments: which attachments of the selected features come back, in
 * what order, how many, and in what form. ArcGIS's parameters, read here:
 * - `attachmentsDefinitionExpression`: a where clause (the where grammar) over the attachment fields
 *   ATTACHMENTID, REL_OBJECTID, GLOBALID, ATT_NAME, CONTENT_TYPE, DATA_SIZE and KEYWORDS;
 * - `attachmentTypes` (content type prefixes, `image` or `image/png`), `keywords` (any of them among an
 *   attachment's comma-separated keywords), `size` (`min,max` in bytes, inclusive);
 * - `orderByFields` over the attachment fields (default: parent object id, then attachment id);
 * - `resultOffset` and `resultRecordCount` over the attachments, in that order;
 * - `returnUrl` (each info's own URL), `returnCountOnly` (`{count}` only).
 * `returnMetadata` is read and answered without `exifInfo`: no EXIF is extracted from stored files.
 * The feature side (objectIds, globalIds, definitionExpression) is the route's.
 */
import { GeoError } from '../errors.js';
import { createFieldCatalog } from '../query/field-catalog.js';
import { present, readBoolean, readInteger } from '../query/normalize/parameter-values.js';
import { invalidParameter } from '../query/query-errors.js';
import type { SqlFragment } from '../query/sql-chunks.js';
import { compileWhere } from '../query/where-compiler.js';
import { parseWhere } from '../query/where-parser.js';

/** The attachment fields a client may filter and order by, and the feature_attachments columns behind them. */
const FIELDS = [
  { name: 'ATTACHMENTID', column: 'id', type: 'esriFieldTypeOID', key: 'id' },
  { name: 'REL_OBJECTID', column: 'object_id', type: 'esriFieldTypeInteger', key: 'objectId' },
  { name: 'GLOBALID', column: 'global_id', type: 'esriFieldTypeGUID', key: 'globalId' },
  { name: 'ATT_NAME', column: 'name', type: 'esriFieldTypeString', key: 'name' },
  { name: 'CONTENT_TYPE', column: 'content_type', type: 'esriFieldTypeString', key: 'contentType' },
  { name: 'DATA_SIZE', column: 'size', type: 'esriFieldTypeBigInteger', key: 'size' },
  { name: 'KEYWORDS', column: 'keywords', type: 'esriFieldTypeString', key: 'keywords' },
] as const;

const CATALOG = createFieldCatalog(FIELDS.map(({ name, column, type }) => ({ name, column, type })));

type SortKey = (typeof FIELDS)[number]['key'];

/** What the query reads of a stored attachment (a feature_attachments row has these and more). */
export interface AttachmentFacts {
  id: number;
  objectId: number;
  globalId: string;
  name: string;
  contentType: string;
  size: number;
  keywords: string;
}

export interface AttachmentQuery {
  /** Compiled over feature_attachments' columns; null when not asked for. */
  where: SqlFragment | null;
  types: string[];
  keywords: string[];
  size: [number, number] | null;
  order: { key: SortKey; descending: boolean }[];
  offset: number;
  count: number | null;
  returnUrl: boolean;
  countOnly: boolean;
}

const list = (raw: string | undefined): string[] =>
  (present(raw) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The where clause's errors name this parameter, not `where`. */
function attachmentsWhere(text: string | undefined): SqlFragment | null {
  if (text === undefined) return null;
  try {
    return compileWhere(parseWhere(text), CATALOG);
  } catch (e) {
    if (!(e instanceof GeoError)) throw e;
    const [, ...problem] = e.toBody().details;
    throw invalidParameter('attachmentsDefinitionExpression', problem.join(' ') || e.message);
  }
}

function sizeRange(raw: string | undefined): [number, number] | null {
  const text = present(raw);
  if (text === undefined) return null;
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length !== 2) throw invalidParameter('size', `'${text}' is not min,max in bytes`);
  const [min, max] = parts.map((p) => readInteger('size', p, 0));
  if (min > max) throw invalidParameter('size', `the minimum ${min} is above the maximum ${max}`);
  return [min, max];
}

function orderOf(raw: string | undefined): AttachmentQuery['order'] {
  return list(raw).map((entry) => {
    const [name, direction = 'ASC', ...rest] = entry.split(/\s+/);
    const field = FIELDS.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (!field || rest.length > 0 || !/^(asc|desc)$/i.test(direction))
      throw invalidParameter(
        'orderByFields',
        `'${entry}' is not an attachment field (${FIELDS.map((f) => f.name).join(', ')}) with ASC or DESC`,
      );
    return { key: field.key, descending: direction.toUpperCase() === 'DESC' };
  });
}

/** Reads the attachment parameters of a queryAttachments request (names lower-cased). */
export function readAttachmentQuery(p: Readonly<Record<string, string | undefined>>): AttachmentQuery {
  readBoolean('returnMetadata', p.returnmetadata, false);
  const count = present(p.resultrecordcount);
  const offset = present(p.resultoffset);
  return {
    where: attachmentsWhere(present(p.attachmentsdefinitionexpression)),
    types: list(p.attachmenttypes).map((t) => t.toLowerCase()),
    keywords: list(p.keywords).map((k) => k.toLowerCase()),
    size: sizeRange(p.size),
    order: orderOf(p.orderbyfields),
    offset: offset === undefined ? 0 : readInteger('resultOffset', offset, 0),
    count: count === undefined ? null : readInteger('resultRecordCount', count, 1),
    returnUrl: readBoolean('returnUrl', p.returnurl, false),
    countOnly: readBoolean('returnCountOnly', p.returncountonly, false),
  };
}

/** The rows the query keeps (the where clause is applied by the database), ordered and paged. */
export function selectAttachments<T extends AttachmentFacts>(rows: readonly T[], q: AttachmentQuery): T[] {
  const kept = rows.filter((r) => {
    if (q.types.length > 0 && !q.types.some((t) => r.contentType.toLowerCase().startsWith(t))) return false;
    if (q.size && (r.size < q.size[0] || r.size > q.size[1])) return false;
    if (q.keywords.length > 0) {
      const own = r.keywords
        .split(',')
        .map((k) => k.trim().toLowerCase())
        .filter(Boolean);
      if (!q.keywords.some((k) => own.includes(k))) return false;
    }
    return true;
  });
  const order = [
    ...q.order,
    { key: 'objectId' as const, descending: false },
    { key: 'id' as const, descending: false },
  ];
  kept.sort((a, b) => {
    for (const { key, descending } of order) {
      const [x, y] = [a[key], b[key]];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      if (c !== 0) return descending ? -c : c;
    }
    return 0;
  });
  return kept.slice(q.offset, q.count === null ? undefined : q.offset + q.count);
}
