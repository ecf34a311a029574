import type { GroupRow, MemberType } from '../../db/repositories/groups.js';

/** The group resource as community/groups/{id} and group listings return it. */
export function groupJson(group: GroupRow, viewer?: { username: string; memberType?: MemberType }) {
  return {
    id: group.id,
    title: group.title,
    isInvitationOnly: group.isInvitationOnly,
    owner: group.owner,
    description: group.description,
    snippet: group.snippet,
    tags: group.tags,
    typeKeywords: [],
    phone: group.phone,
    sortField: group.sortField,
    sortOrder: group.sortOrder,
    isViewOnly: group.isViewOnly,
    isFav: false,
    thumbnail: null,
    created: group.created,
    modified: group.modified,
    access: group.access,
    capabilities: [],
    isReadOnly: false,
    protected: false,
    autoJoin: false,
    notificationsEnabled: false,
    provider: null,
    providerGroupName: null,
    leavingDisallowed: false,
    hiddenMembers: false,
    displaySettings: { itemTypes: '' },
    ...(viewer?.memberType
      ? { userMembership: { username: viewer.username, memberType: viewer.memberType, applications: 0 } }
      : { userMembership: { username: viewer?.username ?? null, memberType: 'none' } }),
  };
}
