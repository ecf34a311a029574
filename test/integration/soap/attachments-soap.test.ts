/**
 * QueryAttachmentInfos and QueryAttachmentData (and their `2` forms) over a feature service whose
 * attachments were added through REST, with node-soap built from our WSDL; each response is checked
 * against the WSDL's schema as a strict toolkit reads it.
 */
import { randomBytes } from 'node:crypto';
import soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchemaValidator, type SchemaValidator } from '../../unit/soap/schema-validator.js';
import { EDITABLE, type EditableService, edit, publishStations } from '../editing/edit-client.js';
import { callMultipart } from '../portal/portal-helpers.js';
import { adminToken, stack } from '../support/portal-client.js';
import { faultOf, type Reply } from './soap-client.js';

describe('SOAP attachment operations', () => {
  let token: string;
  let svc: EditableService;
  let client: any;
  let validator: SchemaValidator;
  const photo = randomBytes(5_000);
  const notes = Buffer.from('valve checked\n');
  const ids: number[] = [];
  const table = {
    attributes: { 'xsi:type': 'tns:LayerDescription' },
    LayerID: 0,
    Visible: true,
    ShowLabels: false,
    ScaleSymbols: false,
    SetSelectionSymbol: false,
    SelectionBufferDistance: 0,
    ShowSelectionBuffer: false,
    DefinitionExpression: "Kind = 'lock'",
  };

  const attach = async (oid: number, name: string, bytes: Buffer, type: string) => {
    const res = await callMultipart(
      `${svc.layer}/${oid}/addAttachment`,
      { token },
      { field: 'attachment', name, bytes, type },
    );
    ids.push(res.json.addAttachmentResult.objectId);
  };

  /** Calls an operation and checks its raw response against the WSDL's schema. */
  const valid = async (op: string, args: Record<string, unknown>) => {
    const [reply, raw] = (await client[`${op}Async`](args)) as Reply;
    expect(validator.errors(raw), op).toEqual([]);
    return reply;
  };

  beforeAll(async () => {
    token = await adminToken();
    svc = await publishStations(token, EDITABLE);
    await attach(1, 'pier.jpg', photo, 'image/jpeg');
    await attach(2, 'notes.txt', notes, 'text/plain');
    const endpoint = `${stack().baseUrl}/services/Hosted/${svc.name}/MapServer?token=${token}`;
    const wsdl = await (await fetch(`${endpoint}&wsdl`)).text();
    validator = createSchemaValidator(wsdl);
    client = await soap.createClientAsync(`${endpoint}&wsdl`);
    client.setEndpoint(endpoint);
  }, 120_000);
  afterAll(() => validator?.dispose());

  it('QueryAttachmentInfos lists the attachments of the rows asked for, in row order', async () => {
    const reply = await valid('QueryAttachmentInfos', {
      MapName: 'Layers',
      TableID: 0,
      RowIDs: { Int: [2, 1, 3] },
    });
    expect(reply.Result.AttachmentInfo).toEqual([
      expect.objectContaining({
        AttachmentID: ids[0],
        ParentID: 1,
        Name: 'pier.jpg',
        ContentType: 'image/jpeg',
        Size: photo.length,
      }),
      expect.objectContaining({
        AttachmentID: ids[1],
        ParentID: 2,
        Name: 'notes.txt',
        ContentType: 'text/plain',
        Size: notes.length,
      }),
    ]);
  });

  it('QueryAttachmentInfos2 narrows the rows by the description’s DefinitionExpression', async () => {
    const reply = await valid('QueryAttachmentInfos2', {
      MapName: 'Layers',
      MapTableDescription: table,
      RowIDs: { Int: [1, 2] },
    });
    // Row 2 (Lock Station) is the only lock.
    expect(reply.Result.AttachmentInfo).toEqual([
      expect.objectContaining({ AttachmentID: ids[1], ParentID: 2 }),
    ]);
  });

  it('QueryAttachmentData embeds the stored bytes', async () => {
    const reply = await valid('QueryAttachmentData', {
      MapName: 'Layers',
      TableID: 0,
      AttachmentIDs: { Int: [ids[0], ids[1]] },
      TransportType: 'geoTransportTypeEmbedded',
    });
    const [first, second] = reply.Result.AttachmentData;
    expect(Buffer.from(first.Data, 'base64').equals(photo)).toBe(true);
    expect(first.AttachmentInfo).toMatchObject({ AttachmentID: ids[0], ParentID: 1, Name: 'pier.jpg' });
    expect(Buffer.from(second.Data, 'base64').toString()).toBe('valve checked\n');
  });

  it('QueryAttachmentData2 with the URL transport names the REST attachment, which serves the bytes', async () => {
    const reply = await valid('QueryAttachmentData2', {
      MapName: 'Layers',
      MapTableDescription: { ...table, DefinitionExpression: '' },
      AttachmentIDs: { Int: [ids[0]] },
      TransportType: 'geoTransportTypeUrl',
    });
    const [data] = reply.Result.AttachmentData;
    expect(data.URL).toBe(
      `${stack().baseUrl}/rest/services/Hosted/${svc.name}/FeatureServer/0/1/attachments/${ids[0]}`,
    );
    const res = await fetch(`${data.URL}?token=${token}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('an attachment of a feature the definition expression hides, or of none, is a client fault', async () => {
    const hidden = await faultOf(
      client.QueryAttachmentData2Async({
        MapName: 'Layers',
        MapTableDescription: table,
        AttachmentIDs: { Int: [ids[0]] },
        TransportType: 'geoTransportTypeEmbedded',
      }),
    );
    expect(hidden.faultstring).toBe(`Attachment ${ids[0]} does not exist in layer 0.`);
    const unknown = await faultOf(
      client.QueryAttachmentDataAsync({
        MapName: 'Layers',
        TableID: 0,
        AttachmentIDs: { Int: [999_999] },
        TransportType: 'geoTransportTypeEmbedded',
      }),
    );
    expect(unknown.faultstring).toBe('Attachment 999999 does not exist in layer 0.');
  });

  it('a deleted feature’s attachments are gone from SOAP too', async () => {
    await edit(`${svc.layer}/deleteFeatures`, token, { objectIds: '2' });
    const reply = await valid('QueryAttachmentInfos', {
      MapName: 'Layers',
      TableID: 0,
      RowIDs: { Int: [2] },
    });
    expect(reply.Result?.AttachmentInfo ?? []).toEqual([]);
  });
});
