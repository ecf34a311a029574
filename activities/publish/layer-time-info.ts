/**
 * A layer's timeInfo, from the publisher's layerInfo.timeInfo: the Date fields `time` filters on,
 * checked against the layer's fields, and the time extent the loaded data spans. Anything else a
 * publisher puts in timeInfo (intervals, track ids, live data) is not served and not copied.
 */
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { badRequest } from '../../lib/errors.js';

export interface TimeField {
  name: string;
  column: string;
}

export interface TimeFields {
  start: TimeField;
  end: TimeField | null;
}

/** Instants: the types stored as timestamptz, which `time` compares with. */
const TIME_TYPES = new Set(['esriFieldTypeDate', 'esriFieldTypeTimestampOffset']);

/** The fields a layerInfo.timeInfo names, or null when it has none; a bad one fails the publish. */
export function timeFieldsOf(plan: LayerPlan, layerInfo: Record<string, unknown>): TimeFields | null {
  const info = layerInfo.timeInfo;
  if (info === undefined || info === null) return null;
  if (typeof info !== 'object' || Array.isArray(info))
    throw invalidTimeInfo('timeInfo must be an object with startTimeField');
  const { startTimeField, endTimeField } = info as Record<string, unknown>;
  if (typeof startTimeField !== 'string' || startTimeField.trim() === '')
    throw invalidTimeInfo('timeInfo.startTimeField must name a date field');
  const start = dateField(plan, startTimeField);
  const hasEnd = typeof endTimeField === 'string' && endTimeField.trim() !== '';
  if (endTimeField !== undefined && endTimeField !== null && endTimeField !== '' && !hasEnd)
    throw invalidTimeInfo('timeInfo.endTimeField must name a date field');
  return { start, end: hasEnd ? dateField(plan, endTimeField as string) : null };
}

function dateField(plan: LayerPlan, name: string): TimeField {
  const field = plan.fields.find((f) => f.name.toLowerCase() === name.trim().toLowerCase());
  if (!field) throw invalidTimeInfo(`timeInfo names '${name}', which is not a field of layer '${plan.name}'`);
  if (!TIME_TYPES.has(field.type))
    throw invalidTimeInfo(`timeInfo field '${field.name}' is ${field.type}, not a date (esriFieldTypeDate)`);
  return { name: field.name, column: field.column };
}

const invalidTimeInfo = (problem: string) => badRequest('Invalid publishParameters.', [problem]);

/** The layer resource's timeInfo: field names, the data's extent in epoch ms, times in UTC. */
export function timeInfoResource(
  fields: TimeFields,
  extent: [number, number] | null,
): Record<string, unknown> {
  return {
    startTimeField: fields.start.name,
    endTimeField: fields.end?.name ?? null,
    trackIdField: null,
    timeExtent: extent,
    timeReference: null,
    hasLiveData: false,
  };
}
