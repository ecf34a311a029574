import { describe, expect, it } from 'vitest';
import {
  editorOf,
  narrowedWhere,
  ownershipWhereText,
  ownFeaturesCondition,
} from '../../../lib/access/ownership.js';
import type { EditorTrackingInfo } from '../../../lib/edit/editor-tracking.js';
import { parseWhere } from '../../../lib/query/where-parser.js';

const info = (others: boolean): EditorTrackingInfo => ({
  enableEditorTracking: true,
  enableOwnershipAccessControl: true,
  allowOthersToQuery: others,
  allowOthersToUpdate: others,
  allowOthersToDelete: others,
  allowAnonymousToUpdate: true,
  allowAnonymousToDelete: true,
});

describe('ownership as a where-clause tree', () => {
  it('limits a plain user to the features they created', () => {
    const editor = editorOf('owner', { username: "o'neil", role: 'org_user', disabled: false });
    const tree = ownFeaturesCondition(info(false), 'Creator', editor, 'query');
    expect(tree).toEqual({
      type: 'compare',
      operator: '=',
      left: { type: 'field', name: 'Creator' },
      right: { type: 'string', value: "o'neil" },
    });
    expect(ownershipWhereText(tree!)).toBe("Creator = 'o''neil'");
    expect(parseWhere(ownershipWhereText(tree!))).toEqual(tree);
  });

  it('limits an anonymous caller to features with an empty creator', () => {
    const tree = ownFeaturesCondition(info(false), 'Creator', editorOf('owner', undefined), 'delete');
    expect(ownershipWhereText(tree!)).toBe("(Creator IS NULL OR Creator = '')");
  });

  it('does not limit the owner (any case), an administrator, or anyone when others are allowed', () => {
    const owner = editorOf('Owner', { username: 'owner', role: 'org_user', disabled: false });
    const admin = editorOf('owner', { username: 'boss', role: 'account_admin', disabled: false });
    expect(ownFeaturesCondition(info(false), 'Creator', owner, 'query')).toBeNull();
    expect(ownFeaturesCondition(info(false), 'Creator', admin, 'update')).toBeNull();
    const plain = editorOf('owner', { username: 'x', role: 'org_user', disabled: false });
    expect(ownFeaturesCondition(info(true), 'Creator', plain, 'query')).toBeNull();
    expect(ownFeaturesCondition(info(false), undefined, plain, 'query')).toBeNull();
  });

  it('narrows a client clause in brackets and refuses one that escapes them', () => {
    expect(narrowedWhere('a = 1', "C = 'x'")).toBe("(a = 1) AND C = 'x'");
    expect(narrowedWhere('  ', "C = 'x'")).toBe("C = 'x'");
    expect(() => narrowedWhere('1=1) OR (1=1', "C = 'x'")).toThrow();
  });
});
