/** A SOAP FeatureRenderer (a LayerDescription's DrawingDescription) as the Esri JSON lib/render draws. */
import type * as Esri from '../../lib/render/types.js';
import type { FeatureRenderer } from '../schema/generated-types.js';
import { fromSoapSymbol } from './renderer-wire.js';

export function fromSoapRenderer(r: FeatureRenderer): Esri.FeatureRenderer {
  switch (r.$type) {
    case 'SimpleRenderer':
      return {
        type: 'simple',
        symbol: fromSoapSymbol(r.Symbol),
        label: r.Label ?? '',
        description: r.Description ?? '',
      };
    case 'UniqueValueRenderer':
      return {
        type: 'uniqueValue',
        field1: r.Field1,
        field2: r.Field2 ?? null,
        field3: r.Field3 ?? null,
        fieldDelimiter: r.FieldDelimiter ?? ',',
        defaultSymbol: fromSoapSymbol(r.DefaultSymbol),
        defaultLabel: r.DefaultLabel,
        uniqueValueInfos: (r.UniqueValueInfos ?? []).map((u) => ({
          value: u.Value,
          label: u.Label,
          description: u.Description,
          symbol: fromSoapSymbol(u.Symbol),
        })),
      };
    case 'ClassBreaksRenderer':
      return {
        type: 'classBreaks',
        field: r.Field,
        minValue: r.MinimumValue,
        classBreakInfos: r.ClassBreakInfos.map((c) => ({
          classMinValue: c.ClassMinimumValue,
          classMaxValue: c.ClassMaximumValue,
          label: c.Label,
          description: c.Description,
          symbol: fromSoapSymbol(c.Symbol),
        })),
        ...(r.NormalizationField ? { normalizationField: r.NormalizationField } : {}),
        ...(r.NormalizationType ? { normalizationType: r.NormalizationType.replace(/^geo/, 'esri') } : {}),
        ...(r.NormalizationTotal !== undefined ? { normalizationTotal: r.NormalizationTotal } : {}),
      };
  }
}
