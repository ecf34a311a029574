/**
 * Who may read and who may change an item. An item is `private` (its owner), `shared` (its owner and
 * the members of the groups it is shared with), `org` (every signed-in member) or `public` (anyone).
 * Owners and administrators may always read and change it. Group membership is a fact looked up by the
 * caller (db/repositories/access.ts) and passed in, so these rules stay pure.
 */
import { isAdmin, type Principal, sameUser } from './roles.js';

export interface ItemFacts {
  owner: string;
  access: string;
}

export const ownsItem = (item: Pick<ItemFacts, 'owner'>, viewer: Principal | undefined): boolean =>
  !!viewer && sameUser(item.owner, viewer.username);

/** Whether the item is readable without knowing the viewer's groups. */
export function canReadDirectly(item: ItemFacts, viewer: Principal | undefined): boolean {
  if (item.access === 'public') return true;
  if (!viewer || viewer.disabled) return false;
  return item.access === 'org' || ownsItem(item, viewer) || isAdmin(viewer);
}

/** `inSharedGroup`: the item is shared with a group the viewer belongs to. */
export const canRead = (item: ItemFacts, viewer: Principal | undefined, inSharedGroup: boolean): boolean =>
  canReadDirectly(item, viewer) || (!!viewer && !viewer.disabled && inSharedGroup);

export const canChange = (item: Pick<ItemFacts, 'owner'>, viewer: Principal | undefined): boolean =>
  !!viewer && !viewer.disabled && (ownsItem(item, viewer) || isAdmin(viewer));

/** The portal's `itemControl` of an item JSON: what the viewer may do with it. */
export function itemControl(
  item: Pick<ItemFacts, 'owner'>,
  viewer: Principal | undefined,
): 'admin' | 'update' | undefined {
  if (!viewer || viewer.disabled) return undefined;
  if (isAdmin(viewer)) return 'admin';
  return ownsItem(item, viewer) ? 'update' : undefined;
}

/** `public` answers may be cached by anyone in between; `restricted` ones only by the client. */
export type ServiceAudience = 'public' | 'restricted';

export const audienceOf = (item: ItemFacts): ServiceAudience =>
  item.access === 'public' ? 'public' : 'restricted';

/** Item ids are 32 hex digits; clients send them in either case. */
export const normalizeItemId = (id: string): string => id.toLowerCase();

export const sameItemId = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
