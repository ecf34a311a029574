/**
 * Attachment resources of a hosted layer: `/{layer}/{oid}/attachments`, `/attachments/{id}` (the
 * file), `addAttachment`, `updateAttachment`, `deleteAttachments` (as @esri/arcgis-rest-feature-service
 * sends them: a multipart `attachment` part), and `/{layer}/queryAttachments`.
 */
import type { Context, Hono } from 'hono';
import { ownFeaturesWhere } from '../../db/repositories/access.js';
import { listAttachments } from '../../db/repositories/attachments.js';
import { narrowedWhere } from '../../lib/access/ownership.js';
import { readAttachmentQuery, selectAttachments } from '../../lib/edit/attachment-query.js';
import { operationNotSupported } from '../../lib/edit/capabilities.js';
import { readObjectIdList } from '../../lib/edit/edit-parameters.js';
import { badRequest } from '../../lib/errors.js';
import { present } from '../../lib/query/normalize/parameter-values.js';
import { invalidParameter } from '../../lib/query/query-errors.js';
import type { AppEnv } from '../env.js';
import { sendJson } from '../render.js';
import { downloadHeaders } from '../stored-download.js';
import { servicesUrl } from '../urls.js';
import {
  addAttachment,
  attachmentContent,
  attachmentInfo,
  attachmentScope,
  deleteAttachments,
  featureAttachments,
  updateAttachment,
} from './attachments.js';
import { selectObjectIds } from './feature-edit-select.js';
import { requestLayer } from './request-layer.js';

async function scopeOf(c: Context<AppEnv>) {
  const deps = c.get('deps');
  const { service, layer } = await requestLayer(c);
  return attachmentScope(deps, service, layer, c.get('user'));
}

const objectIdOf = (c: Context<AppEnv>) => Number(c.req.param('objectId'));

/**
 * `globalIds` (the features', comma-separated) as a condition on the layer's GlobalID field, joined to
 * the definitionExpression; a layer without one refuses them. Values travel as where-clause literals,
 * which the where compiler binds as parameters.
 */
function withGlobalIds(
  where: string | undefined,
  raw: string | undefined,
  definition: unknown,
): string | undefined {
  const ids = (present(raw) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) return where;
  const fields = ((definition as { fields?: { name: string; type: string }[] }).fields ?? []) as {
    name: string;
    type: string;
  }[];
  const field = fields.find((f) => f.type === 'esriFieldTypeGlobalID');
  if (!field) throw invalidParameter('globalIds', 'the layer has no GlobalID field; use objectIds');
  const list = ids.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ');
  // Checked to parse on its own first, so its parentheses cannot reach past the global id condition.
  return narrowedWhere(where, `${field.name} IN (${list})`);
}

export function mountAttachmentRoutes(router: Hono<AppEnv>, base: string): void {
  const feature = `${base}/:layer{[0-9]+}/:objectId{[0-9]+}`;

  router.on(['GET', 'POST'], `${feature}/attachments`, async (c) => {
    const infos = await featureAttachments(await scopeOf(c), objectIdOf(c));
    return sendJson(c, {
      attachmentInfos: infos.map(({ parentObjectId: _, ...info }) => info),
    });
  });

  router.get(`${feature}/attachments/:attachmentId{[0-9]+}`, async (c) => {
    const { row, body } = await attachmentContent(
      await scopeOf(c),
      objectIdOf(c),
      Number(c.req.param('attachmentId')),
    );
    return c.body(
      body,
      200,
      downloadHeaders({ contentType: row.contentType, filename: row.name, size: row.size, inline: true }),
    );
  });

  router.post(`${feature}/addAttachment`, async (c) => {
    const params = c.get('params');
    const result = await addAttachment(
      await scopeOf(c),
      objectIdOf(c),
      params.file('attachment'),
      params.get('keywords') ?? '',
    );
    return sendJson(c, { addAttachmentResult: result });
  });

  router.post(`${feature}/updateAttachment`, async (c) => {
    const params = c.get('params');
    const [attachmentId] = readObjectIdList('attachmentId', params.get('attachmentId'));
    if (attachmentId === undefined)
      throw badRequest('Unable to complete operation.', ["'attachmentId' parameter is required."]);
    const result = await updateAttachment(
      await scopeOf(c),
      objectIdOf(c),
      attachmentId,
      params.file('attachment'),
      params.get('keywords'),
    );
    return sendJson(c, { updateAttachmentResult: result });
  });

  router.post(`${feature}/deleteAttachments`, async (c) => {
    const ids = readObjectIdList('attachmentIds', c.get('params').get('attachmentIds'));
    const results = await deleteAttachments(await scopeOf(c), objectIdOf(c), ids);
    return sendJson(c, { deleteAttachmentResults: results });
  });

  router.on(['GET', 'POST'], `${base}/:layer{[0-9]+}/queryAttachments`, async (c) => {
    const scope = await scopeOf(c);
    if (!scope.model.capabilities.query) throw operationNotSupported(scope.model.capabilities.text);
    const p: Record<string, string | undefined> = c.get('params').all();
    const db = scope.deps.database.db;
    const own = await ownFeaturesWhere(db, scope.service, scope.layer, scope.user);
    const where = withGlobalIds(present(p.definitionexpression), p.globalids, scope.layer.definition);
    const ids = await selectObjectIds(scope.deps.database, scope.service, scope.layer, {
      where: own ? narrowedWhere(where, own) : where,
      objectIds: p.objectids,
    });
    const query = readAttachmentQuery(p);
    const layerUrl = `${servicesUrl(c)}/Hosted/${scope.service.name}/FeatureServer/${scope.layer.layerId}`;
    const rows = selectAttachments(
      await listAttachments(db, scope.service.serviceItemId, scope.layer.layerId, ids, query.where).catch(
        (e) => {
          // A data exception (overflow, a bad cast) comes from the client's attachmentsDefinitionExpression.
          const sqlstate =
            (e as { code?: unknown }).code ?? (e as { cause?: { code?: unknown } }).cause?.code;
          if (typeof sqlstate === 'string' && sqlstate.startsWith('22'))
            throw invalidParameter(
              'attachmentsDefinitionExpression',
              'it could not be evaluated on the stored values',
            );
          throw e;
        },
      ),
      query,
    );
    if (query.countOnly) return sendJson(c, { count: rows.length });
    const groups = new Map<number, (ReturnType<typeof attachmentInfo> & { url?: string })[]>();
    for (const r of rows) {
      const info = {
        ...attachmentInfo(r),
        ...(query.returnUrl ? { url: `${layerUrl}/${r.objectId}/attachments/${r.id}` } : {}),
      };
      groups.set(r.objectId, [...(groups.get(r.objectId) ?? []), info]);
    }
    return sendJson(c, {
      fields: [{ name: 'OBJECTID', type: 'esriFieldTypeOID', alias: 'OBJECTID' }],
      attachmentGroups: [...groups].map(([parentObjectId, infos]) => ({
        parentObjectId,
        parentGlobalId: null,
        attachmentInfos: infos.map(({ parentObjectId: _, ...info }) => info),
      })),
    });
  });
}
