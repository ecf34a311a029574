import type { FieldCatalog } from '../field-catalog.js';
import { FIELD_STORAGE } from '../field-types.js';
import type { OutStatistic, StatisticType } from '../normalized-query.js';
import { attributeField } from './field-list.js';
import { fail, isRecord, present, readJson } from './parameter-values.js';

const STATISTIC_TYPES: StatisticType[] = [
  'count',
  'sum',
  'min',
  'max',
  'avg',
  'stddev',
  'var',
  'percentile_cont',
  'percentile_disc',
];
/**
 * Statistics that only make sense on numbers (a continuous percentile interpolates); min, max,
 * count and the discrete percentile (a value of the column) also take text and dates.
 */
const NUMERIC_ONLY = new Set<StatisticType>(['sum', 'avg', 'stddev', 'var', 'percentile_cont']);
const MAX_STATISTICS = 64;

/**
 * `outStatistics`: a JSON array of `{statisticType, onStatisticField, outStatisticFieldName}`.
 * A missing output name defaults to `<TYPE>_<field>`; a count may be taken over `*`.
 */
export function normalizeOutStatistics(
  value: string | undefined,
  fields: FieldCatalog,
): OutStatistic[] | null {
  const text = present(value);
  if (text === undefined) return null;
  const json = readJson('outStatistics', text);
  const list = Array.isArray(json) ? json : [json];
  if (list.length === 0) throw fail('outStatistics', 'at least one statistic is needed');
  if (list.length > MAX_STATISTICS) throw fail('outStatistics', `more than ${MAX_STATISTICS} statistics`);
  const seen = new Set<string>();
  return list.map((entry) => {
    const stat = statistic(entry, fields);
    const key = stat.outStatisticFieldName.toLowerCase();
    if (seen.has(key))
      throw fail('outStatistics', `the output name '${stat.outStatisticFieldName}' is used twice`);
    seen.add(key);
    return stat;
  });
}

function statistic(entry: unknown, fields: FieldCatalog): OutStatistic {
  if (!isRecord(entry)) throw fail('outStatistics', 'each statistic must be an object');
  const typeText = typeof entry.statisticType === 'string' ? entry.statisticType.toLowerCase() : '';
  const statisticType = STATISTIC_TYPES.find((t) => t === typeText);
  if (!statisticType) {
    throw fail(
      'outStatistics',
      `statisticType '${String(entry.statisticType)}' is not one of ${STATISTIC_TYPES.join(', ')}`,
    );
  }
  if (typeof entry.onStatisticField !== 'string' || entry.onStatisticField.trim() === '') {
    throw fail('outStatistics', 'onStatisticField must name a field');
  }
  const on = entry.onStatisticField.trim();
  let onStatisticField = '*';
  if (on !== '*' || statisticType !== 'count') {
    const field = attributeField('outStatistics', fields, on);
    const kind = FIELD_STORAGE[field.type].kind;
    if (NUMERIC_ONLY.has(statisticType) && kind !== 'number') {
      throw fail('outStatistics', `${statisticType} needs a numeric field; '${field.name}' is not one`);
    }
    onStatisticField = field.name;
  }
  const name = entry.outStatisticFieldName;
  if (name !== undefined && !isPlainName(name)) {
    throw fail('outStatistics', 'outStatisticFieldName must be a name of 1 to 128 characters');
  }
  const outStatisticFieldName =
    typeof name === 'string'
      ? name
      : `${statisticType.toUpperCase()}_${onStatisticField === '*' ? 'ALL' : onStatisticField}`;
  if (statisticType === 'percentile_cont' || statisticType === 'percentile_disc') {
    if (onStatisticField === '*') throw fail('outStatistics', `${statisticType} needs a field`);
    return {
      statisticType,
      onStatisticField,
      outStatisticFieldName,
      statisticParameters: percentileParameters(entry.statisticParameters),
    };
  }
  if (entry.statisticParameters !== undefined && entry.statisticParameters !== null)
    throw fail('outStatistics', `statisticParameters apply to percentiles only, not to ${statisticType}`);
  return { statisticType, onStatisticField, outStatisticFieldName };
}

/** `{value, orderBy}`: the fraction 0..1 and ASC (default) or DESC, as ArcGIS documents. */
function percentileParameters(v: unknown): { value: number; orderBy: 'ASC' | 'DESC' } {
  if (!isRecord(v)) throw fail('outStatistics', 'a percentile needs statisticParameters {"value": 0..1}');
  const value = v.value;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw fail('outStatistics', 'statisticParameters.value must be a number from 0 to 1');
  const order = v.orderBy === undefined ? 'ASC' : String(v.orderBy).toUpperCase();
  if (order !== 'ASC' && order !== 'DESC')
    throw fail('outStatistics', 'statisticParameters.orderBy must be ASC or DESC');
  return { value, orderBy: order };
}

const isPlainName = (name: unknown): boolean =>
  typeof name === 'string' &&
  name.length >= 1 &&
  name.length <= 128 &&
  [...name].every((c) => c.charCodeAt(0) >= 32);
