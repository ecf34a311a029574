import { describe, expect, it } from 'vitest';
import { parseCapabilities, requireEditCapabilities } from '../../../lib/edit/capabilities.js';
import { readEditorTrackingInfo, trackingFieldsFor } from '../../../lib/edit/editor-tracking.js';
import { ownershipRule } from '../../../lib/edit/ownership.js';

describe('capabilities', () => {
  it('Editing alone allows every edit; listing Create narrows it', () => {
    expect(parseCapabilities('Query,Editing')).toMatchObject({
      query: true,
      create: true,
      update: true,
      delete: true,
    });
    expect(parseCapabilities('Query, create ,Editing')).toMatchObject({
      create: true,
      update: false,
      delete: false,
    });
    expect(parseCapabilities('Query')).toMatchObject({ create: false, update: false, delete: false });
  });

  it('refuses a request holding an edit kind the layer does not offer', () => {
    expect(() => requireEditCapabilities(parseCapabilities('Query,Create'), ['create', 'delete'])).toThrow(
      'Requested operation is not supported by this service.',
    );
  });
});

describe('ownership access control', () => {
  const info = readEditorTrackingInfo({
    enableEditorTracking: true,
    enableOwnershipAccessControl: true,
    allowOthersToUpdate: false,
    allowAnonymousToDelete: false,
  });

  it('restricts others to their own features where allowOthersTo… is false', () => {
    const rule = ownershipRule(info, { username: 'bob', privileged: false }, 'update');
    expect(rule?.('bob')).toBe(true);
    expect(rule?.('alice')).toBe(false);
    expect(ownershipRule(info, { username: 'bob', privileged: false }, 'query')).toBeNull();
  });

  it('never restricts the owner or an administrator', () => {
    expect(ownershipRule(info, { username: 'admin', privileged: true }, 'update')).toBeNull();
  });

  it('anonymous callers need allowAnonymousTo…', () => {
    expect(ownershipRule(info, { username: '', privileged: false }, 'delete')?.('')).toBe(false);
  });

  it('without ownership access control nobody is restricted', () => {
    const open = readEditorTrackingInfo({ enableEditorTracking: true, allowOthersToUpdate: false });
    expect(ownershipRule(open, { username: 'bob', privileged: false }, 'update')).toBeNull();
  });
});

describe('editor tracking fields', () => {
  it('follow the data columns and step around names the data uses', () => {
    const fields = trackingFieldsFor(['Name', 'creator'], ['a_0', 'a_1']);
    expect(fields.map((f) => [f.role, f.name, f.column])).toEqual([
      ['creationDateField', 'CreationDate', 'a_2'],
      ['creatorField', 'Creator_1', 'a_3'],
      ['editDateField', 'EditDate', 'a_4'],
      ['editorField', 'Editor', 'a_5'],
    ]);
  });
});
