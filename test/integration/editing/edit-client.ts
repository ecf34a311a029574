/** Helpers for the editing tests: publish the stations CSV as an editable service, edit and read back. */
import { basename, join } from 'node:path';
import { featureServer, uniqueName, upload, waitForJob } from '../publish/publish-client.js';
import { call, stack } from '../support/portal-client.js';

const STATIONS = join(import.meta.dirname, 'stations.csv');

export interface EditableService {
  name: string;
  serviceItemId: string;
  /** Path of layer 0. */
  layer: string;
  url: string;
}

/** Publishes stations.csv as `owner` with the given service properties (capabilities, hasAttachments…). */
export function publishStations(
  token: string,
  properties: Record<string, unknown>,
  owner = stack().admin.username,
): Promise<EditableService> {
  return publishCsv(token, STATIONS, properties, owner);
}

/** Publishes the CSV at `path` as publishStations publishes stations.csv, named after the file. */
export async function publishCsv(
  token: string,
  path: string,
  properties: Record<string, unknown>,
  owner = stack().admin.username,
): Promise<EditableService> {
  const file = { name: basename(path), path };
  const analyzed = await upload('/sharing/rest/content/features/analyze', { token, filetype: 'csv' }, file);
  const name = uniqueName(basename(path, '.csv'));
  const parameters = { ...analyzed.publishParameters, name, ...properties };
  // analyze proposes layerInfo keys (capabilities 'Query', …); the layer's own keys win over the service's.
  for (const key of ['capabilities', 'hasAttachments', 'editorTrackingInfo']) {
    if (key in properties) parameters.layerInfo = { ...parameters.layerInfo, [key]: properties[key] };
  }
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    {
      token,
      filetype: 'csv',
      publishParameters: JSON.stringify(parameters),
    },
    file,
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
  if (status.status !== 'completed') throw new Error(`publish job: ${JSON.stringify(status)}`);
  return {
    name,
    serviceItemId: service.serviceItemId,
    layer: `${featureServer(name)}/0`,
    url: `${stack().baseUrl}${featureServer(name)}`,
  };
}

export const EDITABLE = {
  capabilities: 'Query,Create,Update,Delete,Editing',
  hasAttachments: true,
};

export async function edit(path: string, token: string | undefined, params: Record<string, unknown>) {
  const body: Record<string, string> = token ? { token } : {};
  for (const [k, v] of Object.entries(params)) body[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return (await call(path, body)).json;
}

/** Every feature of layer 0 in WGS84, by object id. */
export async function features(service: EditableService, token: string | undefined, where = '1=1') {
  const res = await call(
    `${service.layer}/query`,
    { ...(token ? { token } : {}), where, outFields: '*', outSR: '4326', orderByFields: 'OBJECTID' },
    { method: 'GET' },
  );
  if (!res.json.features) throw new Error(`query failed: ${res.text}`);
  return res.json.features as { attributes: Record<string, any>; geometry?: { x: number; y: number } }[];
}
