import { describe, expect, it } from 'vitest';
import {
  assertRelationshipAllowed,
  RELATIONSHIP_TYPE_NAMES,
  relationshipType,
  relationshipTypeList,
} from '../../../api/portal/relationship-types.js';

const ends = (
  originType: string,
  destinationType: string,
  originOwner = 'ann',
  destinationOwner = 'ann',
) => ({
  origin: { type: originType, owner: originOwner },
  destination: { type: destinationType, owner: destinationOwner },
});

describe('the relationship type catalogue', () => {
  it('holds the types whose rules are known, spelled as clients send them', () => {
    expect(RELATIONSHIP_TYPE_NAMES).toContain('Map2Service');
    expect(RELATIONSHIP_TYPE_NAMES).toContain('Service2Data');
    expect(RELATIONSHIP_TYPE_NAMES).toHaveLength(27);
  });

  it('finds a type in any letter case', () => {
    expect(relationshipType('map2service').name).toBe('Map2Service');
  });

  it('rejects an unknown type', () => {
    expect(() => relationshipType('Map2Nothing')).toThrow(
      expect.objectContaining({ details: ["'Map2Nothing' is not a defined relationship type."] }),
    );
  });

  it('reads a comma-separated list', () => {
    expect(relationshipTypeList('Map2Service, Service2Data').map((t) => t.name)).toEqual([
      'Map2Service',
      'Service2Data',
    ]);
    expect(relationshipTypeList(undefined)).toEqual([]);
  });
});

describe('assertRelationshipAllowed', () => {
  it('allows Map2Service from a web map to a feature service of another owner', () => {
    expect(() =>
      assertRelationshipAllowed(
        relationshipType('Map2Service'),
        ends('Web Map', 'Feature Service', 'ann', 'bob'),
        'ann',
      ),
    ).not.toThrow();
  });

  it('rejects an origin type the relationship does not take', () => {
    expect(() =>
      assertRelationshipAllowed(relationshipType('Map2Service'), ends('CSV', 'Feature Service'), 'ann'),
    ).toThrow(expect.objectContaining({ code: 400 }));
  });

  it('accepts any origin type where the catalogue says *', () => {
    expect(() =>
      assertRelationshipAllowed(relationshipType('Item2Attachment'), ends('Web Map', 'PDF'), 'ann'),
    ).not.toThrow();
  });

  it('requires both items for mustOwnAllItems', () => {
    const type = relationshipType('Service2Data');
    expect(() =>
      assertRelationshipAllowed(type, ends('Feature Service', 'CSV', 'ann', 'bob'), 'ann'),
    ).toThrow(expect.objectContaining({ code: 403 }));
  });

  it('requires only the origin for mustOwnOriginItem', () => {
    const type = relationshipType('Survey2Service');
    expect(() =>
      assertRelationshipAllowed(type, ends('Form', 'Feature Service', 'ann', 'bob'), 'ann'),
    ).not.toThrow();
    expect(() =>
      assertRelationshipAllowed(type, ends('Form', 'Feature Service', 'bob', 'ann'), 'ann'),
    ).toThrow(expect.objectContaining({ code: 403 }));
  });

  it('requires only the destination for mustOwnDestinationItem', () => {
    const type = relationshipType('Style2Style');
    expect(() =>
      assertRelationshipAllowed(type, ends('Vector Tile Service', 'Style', 'bob', 'ann'), 'ann'),
    ).not.toThrow();
    expect(() =>
      assertRelationshipAllowed(type, ends('Vector Tile Service', 'Style', 'ann', 'bob'), 'ann'),
    ).toThrow(expect.objectContaining({ code: 403 }));
  });
});
