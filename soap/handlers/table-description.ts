/** The layer or table a MapTableDescription or LayerDescription addresses, with its definition expression. */
import type { LayerDescription, MapTableDescription } from '../schema/generated-types.js';
import { type HostedMap, layerOf, type MapLayer } from './map-context.js';

export interface DescribedTable {
  layer: MapLayer;
  definitionExpression?: string;
  includeGeometry: boolean;
  fieldNamesInResults: boolean;
}

export function describedTable(map: HostedMap, d: MapTableDescription | LayerDescription): DescribedTable {
  const id = 'LayerID' in d ? d.LayerID : d.ID;
  const options = 'LayerResultOptions' in d ? d.LayerResultOptions : undefined;
  return {
    layer: layerOf(map, id),
    definitionExpression: d.DefinitionExpression || undefined,
    includeGeometry: options?.IncludeGeometry ?? true,
    fieldNamesInResults: options?.ReturnFieldNamesInResults ?? false,
  };
}

/** LayerDescriptions of a MapDescription by layer id, for definition expressions and visibility. */
export function layerDescriptions(
  descriptions: readonly LayerDescription[] | undefined,
): Map<number, LayerDescription> {
  return new Map((descriptions ?? []).map((d) => [d.LayerID, d]));
}
