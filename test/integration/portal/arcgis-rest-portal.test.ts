import {
  addItemRelationship,
  createGroup,
  createItem,
  getItem,
  getItemData,
  getRelatedItems,
  getUser,
  removeItem,
  removeItemRelationship,
  SearchQueryBuilder,
  searchItems,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { describe, expect, it } from 'vitest';
import { stack } from '../support/portal-client.js';
import { fixtureBytes, newUser, unique } from './portal-helpers.js';

// The official client against the running server, the way an application uses it.
describe('@esri/arcgis-rest-portal against the running portal', () => {
  it('creates, finds, relates and removes items and reads the user', async () => {
    const user = await newUser('org_publisher');
    const portal = `${stack().baseUrl}/sharing/rest`;
    const authentication = await ArcGISIdentityManager.signIn({
      username: user.username,
      password: user.password,
      portal,
    });

    const file = new Blob([fixtureBytes('places.csv')], { type: 'text/csv' });
    const csv = await createItem({
      item: { title: unique('Places '), type: 'CSV', tags: ['towns', 'poi'], snippet: 'Three places' },
      file,
      params: { fileName: 'places.csv' },
      authentication,
    });
    expect(csv.success).toBe(true);

    const item = await getItem(csv.id, { authentication });
    expect(item).toMatchObject({ id: csv.id, owner: user.username, type: 'CSV', tags: ['towns', 'poi'] });
    const data = await getItemData(csv.id, { authentication, file: true });
    expect(Buffer.from(await (data as Blob).arrayBuffer())).toEqual(fixtureBytes('places.csv'));

    const map = await createItem({
      item: { title: unique('Map '), type: 'Web Map' },
      text: JSON.stringify({ operationalLayers: [] }),
      authentication,
    });
    const service = await createItem({
      item: {
        title: unique('Service '),
        type: 'Feature Service',
        url: `${stack().baseUrl}/rest/services/x/FeatureServer`,
      },
      authentication,
    });

    const found = await searchItems({
      q: new SearchQueryBuilder().match(user.username).in('owner').and().match('CSV').in('type'),
      authentication,
    });
    expect(found.results.map((r) => r.id)).toEqual([csv.id]);

    const link = {
      originItemId: map.id,
      destinationItemId: service.id,
      relationshipType: 'Map2Service' as const,
    };
    expect(await addItemRelationship({ ...link, authentication })).toEqual({ success: true });
    const forward = await getRelatedItems({
      id: map.id,
      relationshipType: 'Map2Service',
      direction: 'forward',
      authentication,
    });
    expect(forward.relatedItems.map((r) => r.id)).toEqual([service.id]);
    expect(await removeItemRelationship({ ...link, authentication })).toEqual({ success: true });
    const after = await getRelatedItems({
      id: map.id,
      relationshipType: 'Map2Service',
      direction: 'forward',
      authentication,
    });
    expect(after.total).toBe(0);

    expect(await removeItem({ id: csv.id, authentication })).toEqual({ success: true, itemId: csv.id });
    await expect(getItem(csv.id, { authentication })).rejects.toThrow(/CONT_0001/);

    const group = await createGroup({
      group: { title: unique('Team '), access: 'org', tags: ['team'] },
      authentication,
    });
    expect(group.success).toBe(true);
    expect(group.group.owner).toBe(user.username);

    const me = await getUser({ authentication });
    expect(me.username).toBe(user.username);
    expect(me.role).toBe('org_publisher');
    expect(me.groups?.map((g) => g.id)).toEqual([group.group.id]);
  });
});
