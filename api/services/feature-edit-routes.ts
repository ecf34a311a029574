/**
 * The editing resources of a hosted FeatureServer: a layer's addFeatures, updateFeatures,
 * deleteFeatures and applyEdits, the service's applyEdits (edits per layer), and a single feature
 * `/{layer}/{objectId}`. Edits are POST only, as on ArcGIS.
 */
import type { Context, Hono } from 'hono';
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import { type HostedLayerRow, type HostedServiceRow, listLayers } from '../../db/repositories/services.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { requireEditCapabilities } from '../../lib/edit/capabilities.js';
import { editLayerOf } from '../../lib/edit/edit-layer.js';
import {
  type LayerEdits,
  readFeatures,
  readLayerEdits,
  readRollbackOnFailure,
  readServiceEdits,
} from '../../lib/edit/edit-parameters.js';
import { badRequest, GeoError } from '../../lib/errors.js';
import { present } from '../../lib/query/normalize/parameter-values.js';
import { spatialReferenceParameter } from '../../lib/query/normalize/spatial-reference.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { selectObjectIds } from './feature-edit-select.js';
import { applyEdits, type LayerEditResults } from './feature-edits.js';
import { sendAppend } from './layer-append.js';
import { sendCalculate } from './layer-calculate.js';
import { queryFeatureLayer } from './layer-query.js';
import { requestLayer, requestService } from './request-layer.js';
import { sendServiceJob } from './service-jobs.js';

type Params = Record<string, string | undefined>;

async function editOneLayer(
  c: Context<AppEnv>,
  edits: (p: Params, service: HostedServiceRow, layer: HostedLayerRow) => Promise<LayerEdits>,
): Promise<LayerEditResults> {
  const deps = c.get('deps');
  const { service, layer } = await requestLayer(c);
  const p: Params = c.get('params').all();
  const [result] = await applyEdits(deps, service, [{ layer, edits: await edits(p, service, layer) }], {
    user: c.get('user'),
    inSR: spatialReferenceParameter('inSR', p.insr),
    rollbackOnFailure: readRollbackOnFailure(p.rollbackonfailure),
  });
  return result;
}

const none: LayerEdits = { adds: [], updates: [], deletes: [] };

export function mountFeatureEditRoutes(router: Hono<AppEnv>, base: string): void {
  const layerPath = `${base}/:layer{[0-9]+}`;

  router.post(`${layerPath}/addFeatures`, async (c) => {
    const r = await editOneLayer(c, async (p) => ({ ...none, adds: readFeatures('features', p.features) }));
    return sendJson(c, { addResults: r.addResults });
  });

  router.post(`${layerPath}/updateFeatures`, async (c) => {
    const r = await editOneLayer(c, async (p) => ({
      ...none,
      updates: readFeatures('features', p.features),
    }));
    return sendJson(c, { updateResults: r.updateResults });
  });

  router.post(`${layerPath}/deleteFeatures`, async (c) => {
    const r = await editOneLayer(c, async (p, service, layer) => {
      const model = editLayerOf(layer.layerId, layer.tableName, layer.definition, layer.columns);
      requireEditCapabilities(model.capabilities, ['delete']);
      if (!present(p.objectids) && !present(p.where) && !present(p.geometry))
        throw badRequest('Unable to complete operation.', [
          'deleteFeatures needs objectIds, where or geometry.',
        ]);
      // A delete by filter takes the caller's own features only, where others' are not theirs to delete.
      const db = c.get('deps').database.db;
      const own =
        present(p.where) || present(p.geometry)
          ? await ownFeaturesWhere(db, service, layer, c.get('user'), 'delete')
          : null;
      const ids = await selectObjectIds(c.get('deps').database, service, layer, {
        where: own ? narrowedWhere(p.where, own) : p.where,
        objectIds: p.objectids,
        geometry: p.geometry,
        geometryType: p.geometrytype,
        spatialRel: p.spatialrel,
        inSR: p.insr,
      });
      // Ids listed without a filter are reported one by one, missing ones included.
      const listedOnly = present(p.objectids) && !present(p.where) && !present(p.geometry);
      return { ...none, deletes: listedOnly ? readLayerEdits({ deletes: p.objectids }).deletes : ids };
    });
    return sendJson(c, { deleteResults: r.deleteResults });
  });

  router.post(`${layerPath}/applyEdits`, async (c) => {
    const r = await editOneLayer(c, async (p) => readLayerEdits(p));
    return sendJson(c, {
      addResults: r.addResults,
      updateResults: r.updateResults,
      deleteResults: r.deleteResults,
    });
  });

  router.post(`${layerPath}/calculate`, (c) => sendCalculate(c));
  router.post(`${layerPath}/append`, (c) => sendAppend(c));
  router.on(['GET', 'POST'], `${base}/jobs/:jobId{[0-9a-f]{32}}`, (c) => sendServiceJob(c));

  router.post(`${base}/applyEdits`, async (c) => {
    const deps = c.get('deps');
    const service = requestService(c);
    const layers = await listLayers(deps.database.db, service.serviceItemId);
    const p: Params = c.get('params').all();
    const requests = readServiceEdits(p.edits).map((e) => {
      const layer = layers.find((l) => l.layerId === e.id);
      if (!layer) throw badRequest('Unable to complete operation.', [`Layer ${e.id} does not exist.`]);
      return { layer, edits: { adds: e.adds, updates: e.updates, deletes: e.deletes } };
    });
    const results = await applyEdits(deps, service, requests, {
      user: c.get('user'),
      inSR: spatialReferenceParameter('inSR', p.insr),
      rollbackOnFailure: readRollbackOnFailure(p.rollbackonfailure),
    });
    return sendJson(c, results);
  });

  router.on(['GET', 'POST'], `${layerPath}/:objectId{[0-9]+}`, async (c) => {
    const deps = c.get('deps');
    const objectId = c.req.param('objectId') ?? '';
    const { service, layer } = await requestLayer(c);
    const own = await ownFeaturesWhere(deps.database.db, service, layer, c.get('user'));
    const params: Params = { objectids: objectId, outfields: '*', returngeometry: 'true', f: 'json' };
    if (own) params.where = narrowedWhere(undefined, own);
    const out = (await queryFeatureLayer(deps.database, service, layer, params)).body as {
      features?: { attributes: unknown; geometry?: unknown }[];
    };
    const feature = out.features?.[0];
    if (!feature)
      throw new GeoError({
        code: 404,
        message: 'Feature not found.',
        details: [`No feature has object id ${objectId}.`],
      });
    return sendJson(c, { feature });
  });
}
