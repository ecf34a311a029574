import {
  addAttachment,
  addFeatures,
  applyEdits,
  deleteAttachments,
  deleteFeatures,
  getAttachments,
  updateAttachment,
  updateFeatures,
} from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, stack } from '../support/portal-client.js';
import { EDITABLE, type EditableService, features, publishStations } from './edit-client.js';

describe('editing through @esri/arcgis-rest-feature-service', () => {
  let token: string;
  let svc: EditableService;
  let url: string;
  let authentication: ArcGISIdentityManager;

  beforeAll(async () => {
    token = await adminToken();
    svc = await publishStations(token, EDITABLE);
    url = `${svc.url}/0`;
    authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
  }, 120_000);

  it('addFeatures, updateFeatures and deleteFeatures round trip through the stored values', async () => {
    const added = await addFeatures({
      url,
      authentication,
      features: [
        {
          attributes: { Name: 'Rest dock', Depth: 1.5, Visits: 3 },
          geometry: { x: -9750000, y: 5140000, spatialReference: { wkid: 102100 } } as any,
        },
      ],
    });
    expect(added.addResults).toEqual([{ objectId: 4, uniqueId: 4, globalId: null, success: true }]);
    const updated = await updateFeatures({
      url,
      authentication,
      features: [{ attributes: { OBJECTID: 4, Depth: 2.75 } }],
    });
    expect(updated.updateResults[0].success).toBe(true);
    const [f] = await features(svc, token, 'OBJECTID = 4');
    expect(f.attributes).toMatchObject({ Name: 'Rest dock', Depth: 2.75, Visits: 3 });
    const deleted = await deleteFeatures({ url, authentication, objectIds: [4] });
    expect(deleted.deleteResults).toEqual([{ objectId: 4, uniqueId: 4, globalId: null, success: true }]);
    expect(await features(svc, token, 'OBJECTID = 4')).toEqual([]);
  });

  it('applyEdits adds, updates and deletes in one request', async () => {
    const res = await applyEdits({
      url,
      authentication,
      adds: [{ attributes: { Name: 'Batch' }, geometry: { x: -9751000, y: 5141000 } as any }],
      updates: [{ attributes: { OBJECTID: 1, Kind: 'jetty' } }],
      deletes: [3],
    });
    expect(res.addResults.map((r) => r.success)).toEqual([true]);
    expect(res.updateResults.map((r) => r.objectId)).toEqual([1]);
    expect(res.deleteResults.map((r) => r.objectId)).toEqual([3]);
    const rows = (await features(svc, token)).map((r) => [r.attributes.OBJECTID, r.attributes.Kind]);
    expect(rows).toEqual([
      [1, 'jetty'],
      [2, 'lock'],
      [5, null],
    ]);
  });

  it('addAttachment, getAttachments, updateAttachment and deleteAttachments', async () => {
    const file = new File([new Uint8Array([1, 2, 3, 4, 5])], 'reading.bin', {
      type: 'application/octet-stream',
    });
    const added = await addAttachment({ url, authentication, featureId: 1, attachment: file });
    expect(added.addAttachmentResult.success).toBe(true);
    const id = added.addAttachmentResult.objectId;
    const listed = await getAttachments({ url, authentication, featureId: 1 });
    expect(listed.attachmentInfos).toEqual([
      expect.objectContaining({ id, name: 'reading.bin', size: 5, contentType: 'application/octet-stream' }),
    ]);
    const replacement = new File(['ok'], 'reading.txt', { type: 'text/plain' });
    const updated = await updateAttachment({
      url,
      authentication,
      featureId: 1,
      attachmentId: id,
      attachment: replacement,
    });
    expect(updated.updateAttachmentResult).toMatchObject({ objectId: id, success: true });
    const bytes = await fetch(`${url}/1/attachments/${id}?token=${token}`);
    expect(await bytes.text()).toBe('ok');
    const removed = await deleteAttachments({ url, authentication, featureId: 1, attachmentIds: [id] });
    expect(removed.deleteAttachmentResults).toEqual([
      expect.objectContaining({ objectId: id, success: true }),
    ]);
  });
});
