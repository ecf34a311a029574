import { readFileSync } from 'node:fs';
import { type CatalogField, createFieldCatalog } from '../../../lib/query/field-catalog.js';
import type { LayerCatalog } from '../../../lib/query/layer-catalog.js';

/** The parcels layer of the query tests, read from its fixture file. */
const raw = JSON.parse(
  readFileSync(new URL('../../fixtures/query/parcels-layer.json', import.meta.url), 'utf8'),
) as {
  table: string;
  objectIdField: string;
  maxRecordCount: number;
  hasGeometry: boolean;
  fields: CatalogField[];
};

export const parcelFields = createFieldCatalog(raw.fields);

export const parcelsLayer: LayerCatalog = {
  table: raw.table,
  objectIdField: raw.objectIdField,
  fields: parcelFields,
  maxRecordCount: raw.maxRecordCount,
  hasGeometry: raw.hasGeometry,
};
