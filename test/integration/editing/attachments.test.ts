import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { callMultipart, objectKeys, withDatabase } from '../portal/portal-helpers.js';
import { adminToken, call, stack } from '../support/portal-client.js';
import { EDITABLE, type EditableService, edit, publishStations } from './edit-client.js';

const attachmentPrefix = (svc: EditableService) => `items/${svc.serviceItemId}/attachments/`;

describe('attachments of hosted features', () => {
  let token: string;
  let svc: EditableService;
  const photo = randomBytes(300_000);
  let photoId: number;

  beforeAll(async () => {
    token = await adminToken();
    svc = await publishStations(token, EDITABLE);
  }, 120_000);

  it('addAttachment stores a multipart file; attachments lists it; the file comes back byte for byte', async () => {
    const add = await callMultipart(
      `${svc.layer}/1/addAttachment`,
      { token, keywords: 'photo' },
      { field: 'attachment', name: 'pier.jpg', bytes: photo, type: 'image/jpeg' },
    );
    expect(add.json.addAttachmentResult).toMatchObject({ success: true });
    photoId = add.json.addAttachmentResult.objectId;
    const list = (await call(`${svc.layer}/1/attachments`, { token }, { method: 'GET' })).json;
    expect(list.attachmentInfos).toEqual([
      {
        id: photoId,
        globalId: add.json.addAttachmentResult.globalId,
        name: 'pier.jpg',
        contentType: 'image/jpeg',
        size: photo.length,
        keywords: 'photo',
      },
    ]);
    const res = await fetch(`${stack().baseUrl}${svc.layer}/1/attachments/${photoId}?token=${token}`);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('serves an uploaded SVG attachment as a sandboxed download, a photo inline, both unsniffable', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"/>');
    const add = await callMultipart(
      `${svc.layer}/2/addAttachment`,
      { token },
      { field: 'attachment', name: 'sketch.svg', bytes: svg, type: 'image/svg+xml' },
    );
    const id = add.json.addAttachmentResult.objectId;
    const res = await fetch(`${stack().baseUrl}${svc.layer}/2/attachments/${id}?token=${token}`);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''sketch.svg");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    const photoRes = await fetch(`${stack().baseUrl}${svc.layer}/1/attachments/${photoId}?token=${token}`);
    expect(photoRes.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''pier.jpg");
    expect(photoRes.headers.get('x-content-type-options')).toBe('nosniff');
    // Gone again, so the counts the next tests assert are as before.
    const del = await call(`${svc.layer}/2/deleteAttachments`, { token, attachmentIds: String(id) });
    expect(del.json.deleteAttachmentResults[0].success).toBe(true);
  });

  it('updateAttachment replaces the file and keeps the id; the old bytes are gone from the store', async () => {
    const text = Buffer.from('inspection notes\n');
    const res = await callMultipart(
      `${svc.layer}/1/updateAttachment`,
      { token, attachmentId: String(photoId) },
      { field: 'attachment', name: 'notes.txt', bytes: text, type: 'text/plain' },
    );
    expect(res.json.updateAttachmentResult).toMatchObject({ objectId: photoId, success: true });
    const body = await (
      await fetch(`${stack().baseUrl}${svc.layer}/1/attachments/${photoId}?token=${token}`)
    ).text();
    expect(body).toBe('inspection notes\n');
    expect(await objectKeys(attachmentPrefix(svc))).toHaveLength(1);
  });

  it('queryAttachments groups the attachments by feature, by objectIds or definitionExpression', async () => {
    await callMultipart(
      `${svc.layer}/2/addAttachment`,
      { token },
      { field: 'attachment', name: 'lock.png', bytes: Buffer.from([137, 80, 78, 71]), type: 'image/png' },
    );
    const byIds = (await call(`${svc.layer}/queryAttachments`, { token, objectIds: '1,2' })).json;
    expect(
      byIds.attachmentGroups.map((g: any) => [g.parentObjectId, g.attachmentInfos.map((a: any) => a.name)]),
    ).toEqual([
      [1, ['notes.txt']],
      [2, ['lock.png']],
    ]);
    const byWhere = (
      await call(`${svc.layer}/queryAttachments`, { token, definitionExpression: "Kind = 'lock'" })
    ).json;
    expect(byWhere.attachmentGroups.map((g: any) => g.parentObjectId)).toEqual([2]);
    const images = (await call(`${svc.layer}/queryAttachments`, { token, attachmentTypes: 'image/png' }))
      .json;
    expect(images.attachmentGroups.map((g: any) => g.parentObjectId)).toEqual([2]);
  });

  it('queryAttachments filters, orders and pages the attachments themselves, and gives their URLs', async () => {
    const add = async (name: string, size: number, type: string, keywords: string) =>
      (
        await callMultipart(
          `${svc.layer}/3/addAttachment`,
          { token, keywords },
          { field: 'attachment', name, bytes: randomBytes(size), type },
        )
      ).json.addAttachmentResult.objectId as number;
    const ids = {
      a: await add('a.png', 10, 'image/png', 'survey,2024'),
      b: await add('b.jpg', 2000, 'image/jpeg', 'survey'),
      c: await add('c.txt', 50, 'text/plain', 'misc'),
    };
    const names = async (params: Record<string, string>) => {
      const res = (await call(`${svc.layer}/queryAttachments`, { token, objectIds: '3', ...params })).json;
      return res.error ?? res.attachmentGroups.flatMap((g: any) => g.attachmentInfos.map((a: any) => a.name));
    };
    try {
      expect(
        await names({ attachmentsDefinitionExpression: "CONTENT_TYPE LIKE 'image/%' AND DATA_SIZE > 100" }),
      ).toEqual(['b.jpg']);
      expect(await names({ keywords: '2024' })).toEqual(['a.png']);
      expect(await names({ keywords: 'SURVEY, other' })).toEqual(['a.png', 'b.jpg']);
      expect(await names({ size: '0,60' })).toEqual(['a.png', 'c.txt']);
      expect(await names({ orderByFields: 'DATA_SIZE DESC', resultRecordCount: '2' })).toEqual([
        'b.jpg',
        'c.txt',
      ]);
      expect(await names({ orderByFields: 'ATT_NAME', resultOffset: '1' })).toEqual(['b.jpg', 'c.txt']);
      const counted = await call(`${svc.layer}/queryAttachments`, {
        token,
        objectIds: '3',
        keywords: 'survey',
        returnCountOnly: 'true',
      });
      expect(counted.json).toEqual({ count: 2 });
      const withUrls = await call(`${svc.layer}/queryAttachments`, {
        token,
        objectIds: '3',
        returnUrl: 'true',
        size: '0,10',
      });
      const [info] = withUrls.json.attachmentGroups[0].attachmentInfos;
      expect(info.url).toBe(`${stack().baseUrl}${svc.layer}/3/attachments/${ids.a}`);
      expect((await fetch(`${info.url}?token=${token}`)).status).toBe(200);
      // Refused, each naming its parameter.
      for (const [params, parameter] of [
        [{ attachmentsDefinitionExpression: 'NOSUCH = 1' }, 'attachmentsDefinitionExpression'],
        [{ size: '5' }, 'size'],
        [{ orderByFields: 'Kind' }, 'orderByFields'],
        [{ resultRecordCount: '0' }, 'resultRecordCount'],
      ] as const) {
        const error = await names(params);
        expect(error.code, parameter).toBe(400);
        expect(error.details[0]).toBe(`'${parameter}' parameter is invalid`);
      }
    } finally {
      await call(`${svc.layer}/3/deleteAttachments`, { token, attachmentIds: Object.values(ids).join(',') });
    }
  });

  it('deleteAttachments removes the row and the file; an unknown id fails alone', async () => {
    const res = await call(`${svc.layer}/1/deleteAttachments`, { token, attachmentIds: `${photoId},99999` });
    expect(res.json.deleteAttachmentResults.map((r: any) => [r.objectId, r.success])).toEqual([
      [photoId, true],
      [99999, false],
    ]);
    expect((await call(`${svc.layer}/1/attachments`, { token })).json.attachmentInfos).toEqual([]);
    expect(await objectKeys(attachmentPrefix(svc))).toHaveLength(1);
  });

  it('deleting a feature deletes its attachments', async () => {
    const del = await edit(`${svc.layer}/deleteFeatures`, token, { objectIds: '2' });
    expect(del.deleteResults[0].success).toBe(true);
    expect(await objectKeys(attachmentPrefix(svc))).toEqual([]);
    const rows = await withDatabase(
      (sql) => sql`select id from feature_attachments where service_item_id = ${svc.serviceItemId}`,
    );
    expect(rows).toHaveLength(0);
  });

  it('a file over UPLOAD_MAX_BYTES is refused with 413 and nothing is stored', async () => {
    const before = await objectKeys(attachmentPrefix(svc));
    const res = await callMultipart(
      `${svc.layer}/3/addAttachment`,
      { token },
      { field: 'attachment', name: 'huge.bin', bytes: new Uint8Array(50 * 1024 * 1024 + 1) },
    );
    expect(res.json.error.code).toBe(413);
    expect(await objectKeys(attachmentPrefix(svc))).toEqual(before);
    expect((await call(`${svc.layer}/3/attachments`, { token })).json.attachmentInfos).toEqual([]);
  });

  it('an attachment on a missing feature is refused', async () => {
    const res = await callMultipart(
      `${svc.layer}/404/addAttachment`,
      { token },
      { field: 'attachment', name: 'x.txt', bytes: Buffer.from('x') },
    );
    expect(res.json.error.code).toBe(404);
  });

  it('deleting the service item deletes every attachment', async () => {
    await callMultipart(
      `${svc.layer}/3/addAttachment`,
      { token },
      { field: 'attachment', name: 'a.txt', bytes: Buffer.from('a') },
    );
    expect(await objectKeys(attachmentPrefix(svc))).toHaveLength(1);
    const del = await call(
      `/sharing/rest/content/users/${stack().admin.username}/items/${svc.serviceItemId}/delete`,
      { token },
    );
    expect(del.json.success).toBe(true);
    expect(await objectKeys(attachmentPrefix(svc))).toEqual([]);
    const rows = await withDatabase(
      (sql) => sql`select id from feature_attachments where service_item_id = ${svc.serviceItemId}`,
    );
    expect(rows).toHaveLength(0);
  });
});

describe('a layer without attachments', () => {
  it('refuses the attachment operations', async () => {
    const token = await adminToken();
    const svc = await publishStations(token, { ...EDITABLE, hasAttachments: false });
    const list = (await call(`${svc.layer}/1/attachments`, { token })).json;
    expect(list.error).toMatchObject({
      code: 400,
      message: 'Requested operation is not supported by this service.',
    });
    const add = await callMultipart(
      `${svc.layer}/1/addAttachment`,
      { token },
      { field: 'attachment', name: 'a.txt', bytes: Buffer.from('a') },
    );
    expect(add.json.error.code).toBe(400);
  }, 120_000);
});
