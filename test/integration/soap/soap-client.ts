/** Helpers for the SOAP tests: publish the stations CSV (and a tile cache of it), talk SOAP to it. */
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import soap from 'soap';
import { lonLatToMercator } from '../../../lib/tiles/web-mercator.js';
import { GEO_NAMESPACE } from '../../../soap/schema/model.js';
import { upload, waitForJob } from '../publish/publish-client.js';
import { adminToken, call, stack } from '../support/portal-client.js';

export const soapFixture = (name: string) =>
  join(import.meta.dirname, '..', '..', 'fixtures', 'soap-handlers', name);

export async function publishStations(token: string, name: string): Promise<string> {
  const owner = stack().admin.username;
  const file = { name: 'stations.csv', path: soapFixture('stations.csv') };
  const analyzed = await upload('/sharing/rest/content/features/analyze', { token, filetype: 'csv' }, file);
  const res = await upload(
    `/sharing/rest/content/users/${owner}/publish`,
    { token, filetype: 'csv', publishParameters: JSON.stringify({ ...analyzed.publishParameters, name }) },
    { name: 'stations.csv', path: soapFixture('stations.csv') },
  );
  const service = res.services?.[0];
  if (!service) throw new Error(`publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
  if (status.status !== 'completed') throw new Error(`publish failed: ${JSON.stringify(status)}`);
  return service.serviceItemId as string;
}

/** A Map Service with a tile cache (levels 10–11) drawn from a published feature service. */
export async function publishStationTiles(token: string, featureItemId: string, name: string): Promise<void> {
  const owner = stack().admin.username;
  const res = await upload(`/sharing/rest/content/users/${owner}/publish`, {
    token,
    itemid: featureItemId,
    filetype: 'featureService',
    outputType: 'Tiles',
    buildInitialCache: 'true',
    publishParameters: JSON.stringify({ name, levels: '10-11' }),
  });
  const service = res.services?.[0];
  if (!service) throw new Error(`tile publish failed: ${JSON.stringify(res)}`);
  const status = await waitForJob(token, owner, service.serviceItemId, service.jobId, 180_000);
  if (status.status !== 'completed') throw new Error(`tile publish failed: ${JSON.stringify(status)}`);
}

export const soapEndpoint = (name: string) => `${stack().baseUrl}/services/Hosted/${name}/MapServer`;

/** The endpoint with a token in its query string, as clients of a secured SOAP service call it. */
export const securedEndpoint = async (name: string) => `${soapEndpoint(name)}?token=${await adminToken()}`;

/** The REST query of the same service's layer 0, to compare SOAP answers with. */
export const restQuery = async (name: string, params: Record<string, string>) =>
  (
    await call(
      `/rest/services/Hosted/${name}/FeatureServer/0/query`,
      { token: await adminToken(), ...params },
      { method: 'GET' },
    )
  ).json;

/** A node-soap client built from the WSDL the service serves, calling the service with a token. */
export async function soapClient(name: string) {
  const endpoint = await securedEndpoint(name);
  const client = await soap.createClientAsync(`${endpoint}&wsdl`);
  client.setEndpoint(endpoint);
  return client;
}

export type Reply = [Record<string, any>, string];

/** The fault a node-soap call failed with. */
export async function faultOf(call: Promise<unknown>): Promise<{ faultcode: string; faultstring: string }> {
  const error = await call.then(
    () => {
      throw new Error('expected a SOAP fault');
    },
    (e: unknown) => e,
  );
  return (error as { root: { Envelope: { Body: { Fault: { faultcode: string; faultstring: string } } } } })
    .root.Envelope.Body.Fault;
}

const parser = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false });

/** Posts a request element written by hand; answers the HTTP status and the parsed Body. */
export async function rawSoap(
  name: string,
  body: string,
): Promise<{ status: number; body: Record<string, any> }> {
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:g="${GEO_NAMESPACE}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
  const res = await fetch(await securedEndpoint(name), {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
    body: envelope,
  });
  return { status: res.status, body: parser.parse(await res.text()).Envelope.Body };
}

/** The default map description of a service, ready to send back (as real clients do). */
export const extentRequest = (xmin: number, ymin: number, xmax: number, ymax: number) => ({
  Name: 'Layers',
  MapArea: {
    attributes: { 'xsi:type': 'tns:MapExtent' },
    Extent: { attributes: { 'xsi:type': 'tns:EnvelopeN' }, XMin: xmin, YMin: ymin, XMax: xmax, YMax: ymax },
  },
  Rotation: 0,
});

/** Two of the published stations, and an extent around all six, in Web Mercator. */
export const HOWARD = lonLatToMercator(-87.672892, 42.019063);
export const BELMONT = lonLatToMercator(-87.65338, 41.939751);
const [x0, y0] = lonLatToMercator(-87.76, 41.77);
const [x1, y1] = lonLatToMercator(-87.6, 42.03);
export const VIEW: [number, number, number, number] = [x0, y0, x1, y1];
export const DISPLAY = { ImageHeight: 200, ImageWidth: 300, ImageDPI: 96 };
export const PNG_MIME = { ImageFormat: 'geoImagePNG', ImageReturnType: 'geoImageReturnMimeData' };
