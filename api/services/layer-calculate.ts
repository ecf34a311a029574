/**
 * FeatureServer/{layer}/calculate: sets fields on the features a where clause selects, to values or
 * SQL expressions (lib/edit/calculate.ts), in one statement inside the edit transaction. Editing rules
 * are applyEdits': the layer's Update capability (the owner and administrators may calculate without
 * it, as on ArcGIS), ownership access control, editor tracking fields and lastEditDate kept up to date,
 * and the tile caches drawn from the service redrawn where features changed. The request checks and
 * compiles everything; the statement itself is db/repositories/layer-work.ts, run here or, with
 * async=true, by a job in the worker.
 */
import type { Context } from 'hono';
import { ownFeaturesWhere, serviceEditor } from '../../db/repositories/access.js';
import type { CalculateSet } from '../../db/repositories/feature-calculate.js';
import type { CalculateWork } from '../../db/repositories/layer-work.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { readCalcExpression } from '../../lib/edit/calculate.js';
import { operationNotSupported } from '../../lib/edit/capabilities.js';
import { editLayerOf } from '../../lib/edit/edit-layer.js';
import { badRequest } from '../../lib/errors.js';
import { layerCatalog } from '../../lib/query/hosted-layer-catalog.js';
import { present, readBoolean } from '../../lib/query/normalize/parameter-values.js';
import { type SqlFragment, typedParam } from '../../lib/query/sql-chunks.js';
import { compileWhere } from '../../lib/query/where-compiler.js';
import { parseWhere } from '../../lib/query/where-parser.js';
import type { AppEnv } from '../env.js';
import { format } from '../render.js';
import { requestLayer } from './request-layer.js';
import { answerLayerWork } from './service-jobs.js';

const ACCEPTED = new Set(['f', 'token', 'callback', 'where', 'calcexpression', 'sqlformat', 'async']);

function checkParameters(params: Record<string, string | undefined>): void {
  for (const name of Object.keys(params))
    if (!ACCEPTED.has(name))
      throw badRequest('Unable to complete operation.', [`'${name}' is not a parameter of calculate.`]);
  const sqlFormat = present(params.sqlformat)?.toLowerCase();
  if (sqlFormat !== undefined && sqlFormat !== 'standard' && sqlFormat !== 'none')
    throw badRequest('Unable to complete operation.', [
      "'sqlFormat' must be standard: expressions are read as standardized SQL.",
    ]);
  readBoolean('async', params.async, false);
}

export async function sendCalculate(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const deps = c.get('deps');
  const db = deps.database.db;
  const params: Record<string, string | undefined> = c.get('params').all();
  checkParameters(params);
  const { service, layer } = await requestLayer(c);
  const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
  const editor = await serviceEditor(db, service, c.get('user'));
  if (!model.capabilities.update && !editor.privileged) throw operationNotSupported(model.capabilities.text);
  const catalog = layerCatalog(layer);
  const sets: CalculateSet[] = readCalcExpression(params.calcexpression, model.fields, catalog.fields).map(
    (a) => ({
      column: a.column,
      field: a.field,
      value: a.sql,
      ...(a.maxLength ? { maxLength: a.maxLength } : {}),
      ...(a.rules ? { rules: a.rules } : {}),
    }),
  );
  const now = deps.now();
  if (model.trackingInfo.enableEditorTracking) {
    const t = model.tracking;
    if (t.editorField)
      sets.push({
        column: t.editorField.column,
        field: t.editorField.name,
        value: typedParam(editor.username, 'text'),
      });
    if (t.editDateField)
      sets.push({
        column: t.editDateField.column,
        field: t.editDateField.name,
        value: typedParam(new Date(now).toISOString(), 'timestamptz'),
      });
  }
  // Only features the caller may see and update are calculated.
  let where = present(params.where);
  for (const access of ['query', 'update'] as const) {
    const own = await ownFeaturesWhere(db, service, layer, c.get('user'), access);
    if (own) where = narrowedWhere(where, own);
  }
  const filter: SqlFragment | null = where ? compileWhere(parseWhere(where), catalog.fields) : null;
  const work: CalculateWork = {
    kind: 'calculate',
    serviceItemId: service.serviceItemId,
    layerId: layer.layerId,
    tableName: layer.tableName,
    sets,
    filter,
    now,
  };
  // Checked above; with async=true the statement runs as a job in the worker, which the client polls.
  return answerLayerWork(c, service, 'calculate', work, readBoolean('async', params.async, false));
}
