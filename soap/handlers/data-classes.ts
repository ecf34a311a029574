/**
 * GenerateDataClasses: a class-breaks renderer from the values of a numeric field (optionally
 * normalized), classified by lib/render, or a unique-value renderer from the distinct values of up
 * to three fields; colors from the request's ramp over its base symbol.
 */
import { classify, parseClassificationMethod } from '../../lib/render/classification.js';
import { defaultDrawingInfo } from '../../lib/render/default-drawing-info.js';
import { buildClassBreaksRenderer, buildUniqueValueRenderer } from '../../lib/render/renderer-builder.js';
import type * as Esri from '../../lib/render/types.js';
import { clientFault } from '../fault.js';
import type {
  DataClassificationDef,
  FeatureRenderer,
  MapTableDescription,
} from '../schema/generated-types.js';
import { queryMapLayer } from './layer-query.js';
import type { HostedMap, MapLayer, MapServiceDeps } from './map-context.js';
import { fromSoapColorRamp, fromSoapSymbol, toSoapRenderer } from './renderer-wire.js';
import { describedTable } from './table-description.js';

/** Values read for classification at most (natural breaks samples them anyway). */
const MAX_VALUES = 200_000;

const baseSymbolOf = (layer: MapLayer, given: Esri.EsriSymbol | null): Esri.EsriSymbol =>
  given ??
  ((defaultDrawingInfo(layer.geometryType ?? 'esriGeometryPoint').renderer as Esri.SimpleRenderer)
    .symbol as Esri.EsriSymbol);

function numericField(layer: MapLayer, name: string) {
  const field = layer.catalog.fields.lookup(name);
  if (!field) throw clientFault(`Invalid field: ${name} is not a field of layer ${layer.id}.`);
  if (!/Integer|Double|Single|OID/.test(field.type)) throw clientFault(`Field ${field.name} is not numeric.`);
  return field;
}

export async function generateDataClasses(
  deps: MapServiceDeps,
  map: HostedMap,
  description: MapTableDescription,
  def: DataClassificationDef,
): Promise<FeatureRenderer> {
  const { layer, definitionExpression } = describedTable(map, description);
  if (def.$type === 'ClassBreaksDef') {
    const field = numericField(layer, def.ClassificationField);
    const norm = def.NormalizationType ?? 'geoNormalizeByNothing';
    const normField =
      norm === 'geoNormalizeByField' && def.NormalizationField
        ? numericField(layer, def.NormalizationField)
        : undefined;
    const result = await queryMapLayer(deps, map, layer, {
      mode: 'features',
      definitionExpression,
      outFields: [field.name, normField?.name].filter(Boolean).join(','),
      returnGeometry: false,
      maxRecords: MAX_VALUES,
    });
    let values = result.rows
      .map((r) => Number(r.attrs[field.name]))
      .filter((v, i) => {
        const raw = result.rows[i].attrs[field.name];
        return raw !== null && raw !== undefined && Number.isFinite(v);
      });
    if (normField) {
      values = result.rows
        .map((r) => Number(r.attrs[field.name]) / Number(r.attrs[normField.name]))
        .filter(Number.isFinite);
    } else if (norm === 'geoNormalizeByLog') {
      values = values.filter((v) => v > 0).map(Math.log10);
    } else if (norm === 'geoNormalizeByPercentOfTotal') {
      const total = values.reduce((s, v) => s + v, 0);
      values = total === 0 ? [] : values.map((v) => (v / total) * 100);
    }
    if (values.length === 0) throw clientFault(`Field ${field.name} has no values to classify.`);
    const breaks = classify(
      values,
      parseClassificationMethod(def.ClassificationMethod),
      def.BreakCount ?? 5,
      {
        standardDeviationInterval: def.StandardDeviationInterval,
      },
    );
    return toSoapRenderer(
      buildClassBreaksRenderer({
        field: field.name,
        minValue: Math.min(...values),
        breaks,
        baseSymbol: baseSymbolOf(layer, fromSoapSymbol(def.BaseSymbol)),
        colorRamp: fromSoapColorRamp(def.ColorRamp),
        ...(norm !== 'geoNormalizeByNothing' ? { normalizationType: norm.replace(/^geo/, 'esri') } : {}),
        ...(normField ? { normalizationField: normField.name } : {}),
      }),
    );
  }
  const names = (def.Fields ?? []).filter(Boolean);
  if (names.length === 0 || names.length > 3) throw clientFault('UniqueValuesDef needs one to three Fields.');
  const fields = names.map((n) => {
    const f = layer.catalog.fields.lookup(n);
    if (!f) throw clientFault(`Invalid field: ${n} is not a field of layer ${layer.id}.`);
    return f;
  });
  const result = await queryMapLayer(deps, map, layer, {
    mode: 'features',
    definitionExpression,
    outFields: fields.map((f) => f.name).join(','),
    orderBy: fields.map((f) => f.name).join(','),
    returnGeometry: false,
    maxRecords: MAX_VALUES,
  });
  const seen = new Map<string, (string | number | null)[]>();
  for (const row of result.rows) {
    const tuple = fields.map((f) => (row.attrs[f.name] ?? null) as string | number | null);
    seen.set(JSON.stringify(tuple), tuple);
  }
  return toSoapRenderer(
    buildUniqueValueRenderer({
      fields: fields.map((f) => f.name),
      fieldDelimiter: def.FieldDelimiter || ',',
      values: [...seen.values()],
      baseSymbol: baseSymbolOf(layer, fromSoapSymbol(def.BaseSymbol)),
      colorRamp: fromSoapColorRamp(def.ColorRamp),
    }),
  );
}
