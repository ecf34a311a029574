/**
 * Text columns a GeoPackage or SQLite file declares without a width (TEXT, not TEXT(n)): their
 * published length is the longest value loaded, as analyze answers it (in bytes, at least 256). A
 * publish does not read the rows for it while planning: the load bounds nothing on these columns,
 * and the finished layer measures the loaded table (every attempt's rows are in it), in the scan
 * that also counts the rows and takes the extent.
 */
import type { LayerPlan } from '../../db/schema/publish-request.js';

type PlannedField = LayerPlan['fields'][number];

/** The string fields of a planned layer whose source column has no declared width (`measuredText`). */
export function measuredTextFields(plan: LayerPlan): PlannedField[] {
  if (plan.source.kind !== 'sqlite' || !plan.source.measuredText) return [];
  const measured = new Set(plan.source.measuredText);
  return plan.fields.filter(
    (f) => f.type === 'esriFieldTypeString' && measured.has(plan.headers[f.sourceIndex] ?? ''),
  );
}

/** The fields the loader checks cells against: measured ones without a length, so none is refused. */
export function loadedFields(plan: LayerPlan): PlannedField[] {
  const measured = new Set(measuredTextFields(plan));
  if (measured.size === 0) return plan.fields;
  return plan.fields.map((f) => {
    if (!measured.has(f)) return f;
    const { length: _planned, ...unbounded } = f;
    return unbounded;
  });
}

/**
 * The plan with each measured field's length the longest value loaded, when longer than the planned
 * one (256, or what publishParameters gave, as analyze answered it).
 */
export function withMeasuredLengths(
  plan: LayerPlan,
  measured: readonly PlannedField[],
  longest: readonly number[],
): LayerPlan {
  const lengths = new Map(measured.map((f, i) => [f, longest[i] ?? 0]));
  return {
    ...plan,
    fields: plan.fields.map((f) => {
      const n = lengths.get(f);
      return n === undefined ? f : { ...f, length: Math.max(f.length ?? 256, n) };
    }),
  };
}
