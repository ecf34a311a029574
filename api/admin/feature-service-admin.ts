/**
 * rest/admin/services/Hosted/{name}/FeatureServer: the hosted feature service's admin resource and its
 * schema operations (addToDefinition, updateDefinition, deleteFromDefinition) on the service and on
 * each layer. Only the service's owner or an administrator may call them. Each request is planned
 * (lib/service/definition-changes.ts), then applied in one transaction (db/repositories/layer-work.ts,
 * here or, with async=true, by a job in the worker); caches drawn from the service are drawn again
 * when a layer's drawingInfo changed. `{layer}/truncate` empties a layer the same way.
 */
import { type Context, Hono } from 'hono';
import { extentBounds } from '../../db/repositories/feature-edit-layer.js';
import { findItem } from '../../db/repositories/items.js';
import type { LayerSchemaChange } from '../../db/repositories/layer-schema.js';
import type { DefinitionWork, TruncateWork } from '../../db/repositories/layer-work.js';
import {
  findServiceByName,
  type HostedLayerRow,
  type HostedServiceRow,
  listLayers,
} from '../../db/repositories/services.js';
import { canChange } from '../../lib/access/items.js';
import { forbidden } from '../../lib/errors.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import { present, readBoolean } from '../../lib/query/normalize/parameter-values.js';
import {
  invalidDefinition,
  type LayerPlan,
  planAddToLayer,
  planDeleteFromLayer,
  planUpdateLayer,
  type StoredLayerSchema,
} from '../../lib/service/definition-changes.js';
import { servedLayer, servedService } from '../../lib/service/engine-capabilities.js';
import { checkRelationshipPairs } from '../../lib/service/relationships.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { layerOfService, serviceNotFound } from '../services/hosted-layer.js';
import { authorizeService } from '../services/service-access.js';
import { answerLayerWork } from '../services/service-jobs.js';

type Json = Record<string, unknown>;
type Operation = 'addToDefinition' | 'updateDefinition' | 'deleteFromDefinition';
const PLANNERS: Record<Operation, (l: StoredLayerSchema, r: Json, now: number) => LayerPlan> = {
  addToDefinition: planAddToLayer,
  updateDefinition: planUpdateLayer,
  deleteFromDefinition: planDeleteFromLayer,
};
const WORDS: Record<Operation, string> = {
  addToDefinition: 'add to definition',
  updateDefinition: 'update definition',
  deleteFromDefinition: 'delete from definition',
};
/** Service properties updateDefinition changes; capabilities and maxRecordCount reach every layer too. */
const SERVICE_TEXT = ['serviceDescription', 'description', 'copyrightText'];

/** The service named in the URL, for its owner or an administrator. */
async function changeableService(c: Context<AppEnv>): Promise<HostedServiceRow> {
  const user = requireUser(c);
  const db = c.get('deps').database.db;
  const service = await findServiceByName(db, c.req.param('name') ?? '');
  if (service?.status !== 'ready') throw serviceNotFound();
  await authorizeService(db, service.serviceItemId, user);
  const item = await findItem(db, service.serviceItemId);
  if (!canChange(item ?? { owner: service.owner }, user)) throw forbidden();
  return service;
}

function requestJson(c: Context<AppEnv>, operation: Operation): Json {
  const params = c.get('params');
  const raw = present(params.get(operation));
  if (!raw) throw invalidDefinition(WORDS[operation], `'${operation}' is required.`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidDefinition(WORDS[operation], `'${operation}' is not valid JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidDefinition(WORDS[operation], `'${operation}' must be a JSON object.`);
  return value as Json;
}

const stored = (l: HostedLayerRow): StoredLayerSchema => ({
  layerId: l.layerId,
  tableName: l.tableName,
  definition: l.definition,
  columns: l.columns,
});

/** The service's summary of its layers, following layer renames and scale changes. */
function serviceLayerLists(service: HostedServiceRow, layers: Map<number, Json>): Json {
  const follow = (list: unknown) =>
    Array.isArray(list)
      ? list.map((entry: Json) => {
          const def = layers.get(Number(entry.id));
          if (!def) return entry;
          const out: Json = { ...entry };
          for (const k of ['name', 'defaultVisibility', 'minScale', 'maxScale'])
            if (def[k] !== undefined) out[k] = def[k];
          return out;
        })
      : list;
  return { layers: follow(service.definition.layers), tables: follow(service.definition.tables) };
}

async function apply(
  c: Context<AppEnv>,
  operation: Operation,
  service: HostedServiceRow,
  plans: { layer: HostedLayerRow; plan: LayerPlan }[],
  serviceChanges: Json,
) {
  const deps = c.get('deps');
  // Relationships come in pairs: after the change each one must still have its other side.
  const all = await listLayers(deps.database.db, service.serviceItemId);
  checkRelationshipPairs(
    all.map((l) => ({
      layerId: l.layerId,
      definition: plans.find((p) => p.layer.layerId === l.layerId)?.plan.definition ?? l.definition,
    })),
  );
  const now = deps.now();
  const changes: LayerSchemaChange[] = plans.map(({ layer, plan }) => ({
    layerId: layer.layerId,
    tableName: layer.tableName,
    definition: plan.definition,
    columns: plan.columns,
    ops: plan.ops,
  }));
  const defs = new Map(plans.map(({ layer, plan }) => [layer.layerId, plan.definition]));
  const owner = (await findItem(deps.database.db, service.serviceItemId))?.owner ?? service.owner;
  const work: DefinitionWork = {
    kind: 'definition',
    serviceItemId: service.serviceItemId,
    changes,
    serviceChanges: { ...serviceChanges, ...serviceLayerLists(service, defs) },
    owner,
    redraw: plans
      .filter(({ plan }) => plan.drawingChanged)
      .map(({ plan }) => extentBounds(plan.definition.extent))
      .filter((b): b is Bounds => b !== null),
    now,
  };
  // Checked above; with async=true the change itself runs as a job in the worker, which the client polls.
  const async = readBoolean('async', c.get('params').get('async'), false);
  return answerLayerWork(c, service, operation, work, async);
}

/** A service-level request: `layers` (and `tables`) entries for existing layers, by id. */
function layerEntries(operation: Operation, request: Json, layers: HostedLayerRow[]) {
  const entries = [
    ...((request.layers as unknown[] | undefined) ?? []),
    ...((request.tables as unknown[] | undefined) ?? []),
  ];
  for (const key of ['layers', 'tables'])
    if (request[key] !== undefined && !Array.isArray(request[key]))
      throw invalidDefinition(WORDS[operation], `'${key}' must be an array.`);
  const seen = new Set<number>();
  return entries.map((entry) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw invalidDefinition(WORDS[operation], 'Each layer entry must be an object with an id.');
    const { id, ...rest } = entry as Json;
    const layer = layers.find((l) => l.layerId === id);
    if (!layer)
      throw invalidDefinition(
        WORDS[operation],
        `Layer ${String(id)} does not exist (layers cannot be added or removed here, only changed).`,
      );
    if (seen.has(layer.layerId))
      throw invalidDefinition(WORDS[operation], `Layer ${layer.layerId} is named twice.`);
    seen.add(layer.layerId);
    return { layer, request: rest };
  });
}

async function serviceOperation(c: Context<AppEnv>, operation: Operation) {
  format(c, ['json', 'pjson']);
  const service = await changeableService(c);
  const request = requestJson(c, operation);
  const layers = await listLayers(c.get('deps').database.db, service.serviceItemId);
  const now = c.get('deps').now();
  const serviceChanges: Json = {};
  const perLayer = new Map<number, Json>();
  if (operation === 'updateDefinition') {
    for (const [key, value] of Object.entries(request)) {
      if (key === 'layers' || key === 'tables') continue;
      if (SERVICE_TEXT.includes(key)) {
        if (typeof value !== 'string')
          throw invalidDefinition(WORDS[operation], `'${key}' must be a string.`);
        serviceChanges[key] = value;
      } else if (key === 'capabilities' || key === 'maxRecordCount') {
        // Layers carry their own; the service's value is applied to each, as ArcGIS Online does.
        for (const l of layers) perLayer.set(l.layerId, { ...perLayer.get(l.layerId), [key]: value });
      } else {
        throw invalidDefinition(
          WORDS[operation],
          `'${key}' cannot be changed on the service (${[...SERVICE_TEXT, 'capabilities', 'maxRecordCount', 'layers'].join(', ')}).`,
        );
      }
    }
  } else {
    for (const key of Object.keys(request))
      if (key !== 'layers' && key !== 'tables')
        throw invalidDefinition(WORDS[operation], `'${key}' is not supported here (layers, tables).`);
  }
  for (const { layer, request: r } of layerEntries(operation, request, layers))
    perLayer.set(layer.layerId, { ...perLayer.get(layer.layerId), ...r });
  if (perLayer.size === 0 && Object.keys(serviceChanges).length === 0)
    throw invalidDefinition(WORDS[operation], 'The request changes nothing.');
  const plans = layers
    .filter((l) => perLayer.has(l.layerId))
    .map((layer) => ({ layer, plan: PLANNERS[operation](stored(layer), perLayer.get(layer.layerId)!, now) }));
  // The service's own copies of what changed on every layer.
  for (const key of ['capabilities', 'maxRecordCount'])
    if (key in request) serviceChanges[key] = plans[0]?.plan.definition[key] ?? request[key];
  return apply(c, operation, service, plans, serviceChanges);
}

async function layerOperation(c: Context<AppEnv>, operation: Operation) {
  format(c, ['json', 'pjson']);
  const service = await changeableService(c);
  const request = requestJson(c, operation);
  const layer = await layerOfService(c.get('deps').database.db, service, c.req.param('layer') ?? '');
  const plan = PLANNERS[operation](stored(layer), request, c.get('deps').now());
  return apply(c, operation, service, [{ layer, plan }], {});
}

export function createFeatureServiceAdminRouter(): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  const base = '/admin/services/Hosted/:name/FeatureServer';
  const layerPath = `${base}/:layer{[0-9]+}`;

  router.on(['GET', 'POST'], base, async (c) => {
    format(c, ['json', 'pjson']);
    const service = await changeableService(c);
    const layers = (await listLayers(c.get('deps').database.db, service.serviceItemId)).map((l) =>
      servedLayer(l.definition),
    );
    return sendJson(c, {
      ...servedService(service.definition),
      adminServiceInfo: { name: service.name, type: 'FeatureServer', status: 'Started' },
      layers: layers.filter((d) => d.type !== 'Table'),
      tables: layers.filter((d) => d.type === 'Table'),
    });
  });

  router.on(['GET', 'POST'], layerPath, async (c) => {
    format(c, ['json', 'pjson']);
    const service = await changeableService(c);
    const layer = await layerOfService(c.get('deps').database.db, service, c.req.param('layer') ?? '');
    return sendJson(c, servedLayer(layer.definition));
  });

  router.post(`${layerPath}/truncate`, async (c) => {
    format(c, ['json', 'pjson']);
    const service = await changeableService(c);
    const layer = await layerOfService(c.get('deps').database.db, service, c.req.param('layer') ?? '');
    const params = c.get('params');
    const attachmentsOnly = readBoolean('attachmentOnly', params.get('attachmentonly'), false);
    const work: TruncateWork = {
      kind: 'truncate',
      serviceItemId: service.serviceItemId,
      layerId: layer.layerId,
      tableName: layer.tableName,
      attachmentsOnly,
      storage: storageSpatialReference(service),
      now: c.get('deps').now(),
    };
    return answerLayerWork(c, service, 'truncate', work, readBoolean('async', params.get('async'), false));
  });

  for (const operation of Object.keys(PLANNERS) as Operation[]) {
    router.post(`${base}/${operation}`, (c) => serviceOperation(c, operation));
    router.post(`${layerPath}/${operation}`, (c) => layerOperation(c, operation));
  }
  return router;
}
