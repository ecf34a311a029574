import { describe, expect, it } from 'vitest';
import { call } from '../support/portal-client.js';
import { addTextItem, newUser, type TestUser } from './portal-helpers.js';

const add = (user: TestUser, params: Record<string, string>, as = user.username) =>
  call(`/sharing/rest/content/users/${as}/addRelationship`, { token: user.token, ...params });
const related = (id: string, token: string, params: Record<string, string>) =>
  call(`/sharing/rest/content/items/${id}/relatedItems`, { token, ...params }, { method: 'GET' });
const ids = (res: { json: Record<string, any> }) => res.json.relatedItems.map((i: { id: string }) => i.id);

describe('addRelationship', () => {
  it('links a web map to a feature service and both directions list it', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const service = await addTextItem(u, { type: 'Feature Service', text: '' });
    const res = await add(u, {
      originItemId: map,
      destinationItemId: service,
      relationshipType: 'Map2Service',
    });
    expect(res.json).toEqual({ success: true });
    const forward = await related(map, u.token, { relationshipType: 'Map2Service', direction: 'forward' });
    expect(ids(forward)).toEqual([service]);
    const reverse = await related(service, u.token, {
      relationshipTypes: 'Map2Service',
      direction: 'reverse',
    });
    expect(ids(reverse)).toEqual([map]);
    expect(reverse.json.total).toBe(1);
  });

  it('accepts relationshipTypes as the documentation spells it', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const service = await addTextItem(u, { type: 'Map Service' });
    const res = await add(u, {
      originItemId: map,
      destinationItemId: service,
      relationshipTypes: 'Map2Service',
    });
    expect(res.json.success).toBe(true);
  });

  it('rejects a duplicate', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const service = await addTextItem(u, { type: 'Feature Service' });
    const params = { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' };
    await add(u, params);
    const again = await add(u, params);
    expect(again.json.error.message).toBe('Relationship already exists.');
  });

  it('rejects an origin item of the wrong type', async () => {
    const u = await newUser();
    const csv = await addTextItem(u, { type: 'CSV' });
    const service = await addTextItem(u, { type: 'Feature Service' });
    const res = await add(u, {
      originItemId: csv,
      destinationItemId: service,
      relationshipType: 'Map2Service',
    });
    expect(res.json.error.details[0]).toMatch(/origin item of type 'CSV'/);
  });

  it('rejects a destination item of the wrong type', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const other = await addTextItem(u);
    const res = await add(u, {
      originItemId: map,
      destinationItemId: other,
      relationshipType: 'Map2Service',
    });
    expect(res.json.error.details[0]).toMatch(/destination item of type 'Web Map'/);
  });

  it('rejects an unknown relationship type', async () => {
    const u = await newUser();
    const [a, b] = [await addTextItem(u), await addTextItem(u)];
    const res = await add(u, { originItemId: a, destinationItemId: b, relationshipType: 'Map2Everything' });
    expect(res.json.error.details[0]).toMatch(/not a defined relationship type/);
  });

  it('lets a member link to an org-visible item of another owner when the type has no ownership rule', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const map = await addTextItem(a);
    const service = await addTextItem(b, { type: 'Feature Service' });
    await withOrgAccess(b, service);
    const res = await add(a, {
      originItemId: map,
      destinationItemId: service,
      relationshipType: 'Map2Service',
    });
    expect(res.json.success).toBe(true);
  });

  it('enforces mustOwnAllItems against an org-visible item of another owner', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const service = await addTextItem(a, { type: 'Feature Service' });
    const csv = await addTextItem(b, { type: 'CSV', text: 'x,y\n1,2' });
    await withOrgAccess(b, csv);
    const res = await add(a, {
      originItemId: service,
      destinationItemId: csv,
      relationshipType: 'Service2Data',
    });
    expect(res.json.error.code).toBe(403);
    expect(res.json.error.message).toMatch(/own both items/);
  });

  it('refuses to act for another user', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const [m, s] = [await addTextItem(a), await addTextItem(a, { type: 'Feature Service' })];
    const res = await add(
      b,
      { originItemId: m, destinationItemId: s, relationshipType: 'Map2Service' },
      a.username,
    );
    expect(res.json.error.code).toBe(403);
  });
});

describe('deleteRelationship and item deletion', () => {
  it('deletes a relationship for its creator', async () => {
    const u = await newUser();
    const [map, service] = [await addTextItem(u), await addTextItem(u, { type: 'Feature Service' })];
    const params = { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' };
    await add(u, params);
    const res = await call(`/sharing/rest/content/users/${u.username}/deleteRelationship`, {
      token: u.token,
      ...params,
    });
    expect(res.json).toEqual({ success: true });
    expect(ids(await related(map, u.token, { direction: 'forward' }))).toEqual([]);
  });

  it('refuses to delete a relationship someone else created', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const map = await addTextItem(a);
    const service = await addTextItem(b, { type: 'Feature Service' });
    await withOrgAccess(b, service);
    await withOrgAccess(a, map);
    const params = { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' };
    await add(a, params);
    const res = await call(`/sharing/rest/content/users/${b.username}/deleteRelationship`, {
      token: b.token,
      ...params,
    });
    expect(res.json.error.code).toBe(403);
    expect(ids(await related(map, a.token, { direction: 'forward' }))).toEqual([service]);
  });

  it('reports a relationship that does not exist', async () => {
    const u = await newUser();
    const [map, service] = [await addTextItem(u), await addTextItem(u, { type: 'Feature Service' })];
    const res = await call(`/sharing/rest/content/users/${u.username}/deleteRelationship`, {
      token: u.token,
      originItemId: map,
      destinationItemId: service,
      relationshipType: 'Map2Service',
    });
    expect(res.json.error.message).toBe('Relationship does not exist.');
  });

  it('drops the relationship when either item is deleted', async () => {
    const u = await newUser();
    const [map, service] = [await addTextItem(u), await addTextItem(u, { type: 'Feature Service' })];
    await add(u, { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' });
    await call(`/sharing/rest/content/users/${u.username}/items/${service}/delete`, { token: u.token });
    expect(ids(await related(map, u.token, { direction: 'forward' }))).toEqual([]);
    const service2 = await addTextItem(u, { type: 'Feature Service' });
    await add(u, { originItemId: map, destinationItemId: service2, relationshipType: 'Map2Service' });
    await call(`/sharing/rest/content/users/${u.username}/items/${map}/delete`, { token: u.token });
    expect(ids(await related(service2, u.token, { direction: 'reverse' }))).toEqual([]);
  });

  it('refuses an unknown direction', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const res = await related(map, u.token, { direction: 'sideways' });
    expect(res.json.error.details[0]).toMatch(/direction/);
  });
});

/** Items are private by default; the tests that cross owners make one visible to the organization. */
async function withOrgAccess(owner: TestUser, itemId: string) {
  const res = await call(`/sharing/rest/content/users/${owner.username}/items/${itemId}/share`, {
    token: owner.token,
    org: 'true',
  });
  expect(res.json.notSharedWith).toEqual([]);
}

describe('composite relationships', () => {
  it('deletes an attachment with the item it is attached to, and nothing else', async () => {
    const u = await newUser();
    const map = await addTextItem(u);
    const pdf = await addTextItem(u, { type: 'PDF' });
    const service = await addTextItem(u, { type: 'Feature Service' });
    await add(u, { originItemId: map, destinationItemId: pdf, relationshipType: 'Item2Attachment' });
    await add(u, { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' });
    const del = await call(`/sharing/rest/content/users/${u.username}/items/${map}/delete`, {
      token: u.token,
    });
    expect(del.json.success).toBe(true);
    const attachment = await call(
      `/sharing/rest/content/items/${pdf}`,
      { token: u.token },
      { method: 'GET' },
    );
    expect(attachment.json.error.messageCode).toBe('CONT_0001');
    const kept = await call(`/sharing/rest/content/items/${service}`, { token: u.token }, { method: 'GET' });
    expect(kept.json.id).toBe(service);
  });
});
