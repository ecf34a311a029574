import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import {
  checkDeclaredPairs,
  checkRelationshipPairs,
  readRelationships,
  relationshipPair,
} from '../../../lib/service/relationships.js';

const fields = [
  { name: 'OBJECTID', type: 'esriFieldTypeOID' },
  { name: 'code', type: 'esriFieldTypeString' },
  { name: 'when', type: 'esriFieldTypeDate' },
];
const origin = { id: 4, relatedTableId: 1, role: 'esriRelRoleOrigin', keyField: 'CODE' };
const destination = { id: 4, relatedTableId: 0, role: 'esriRelRoleDestination', keyField: 'code' };
const layers = [
  { layerId: 0, definition: { fields, relationships: [origin] } },
  { layerId: 1, definition: { fields, relationships: [destination] } },
];

function problem(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    if (e instanceof GeoError) return e.toBody().details.join(' ');
    throw e;
  }
  throw new Error('no error thrown');
}

describe('relationships', () => {
  it('reads a side with defaults and the key field in its declared spelling', () => {
    expect(readRelationships([origin], fields, 'layer 0')).toEqual([
      {
        id: 4,
        name: 'relationship_4',
        relatedTableId: 1,
        cardinality: 'esriRelCardinalityOneToMany',
        role: 'esriRelRoleOrigin',
        keyField: 'code',
        composite: false,
      },
    ]);
  });

  it('refuses date keys, unknown cardinalities, unknown keys and repeated ids', () => {
    expect(problem(() => readRelationships([{ ...origin, keyField: 'when' }], fields, 'l'))).toMatch(
      /whole numbers or text/,
    );
    const manyToOne = { ...origin, cardinality: 'esriRelCardinalityManyToOne' };
    expect(problem(() => readRelationships([manyToOne], fields, 'l'))).toMatch(/ManyToOne' is not supported/);
    expect(problem(() => readRelationships([{ ...origin, junk: 1 }], fields, 'l'))).toMatch(
      /'junk' is not supported/,
    );
    expect(problem(() => readRelationships([origin, origin], fields, 'l'))).toMatch(/listed twice/);
  });

  it('pairs a side with the other layer’s side of the same id', () => {
    const pair = relationshipPair(layers, 1, 4);
    expect([pair.relatedLayerId, pair.relationship.role, pair.counterpart.role]).toEqual([
      0,
      'esriRelRoleDestination',
      'esriRelRoleOrigin',
    ]);
  });

  it('finds a side without its counterpart, or two sides with one role', () => {
    const lonely = [layers[0], { layerId: 1, definition: { fields } }];
    expect(problem(() => checkRelationshipPairs(lonely))).toBe(
      'layer 0: layer 1 does not list relationship 4 back to layer 0',
    );
    const twins = [
      layers[0],
      { layerId: 1, definition: { fields, relationships: [{ ...destination, role: 'esriRelRoleOrigin' }] } },
    ];
    expect(problem(() => checkRelationshipPairs(twins))).toMatch(/both sides/);
  });

  it('refuses relationship table keys on a one-to-many side, and a many-to-many side without them', () => {
    expect(
      problem(() => readRelationships([{ ...origin, keyFieldInRelationshipTable: 'x' }], fields, 'l')),
    ).toBe(
      "l, relationships[0]: 'relationshipTableId' and 'keyFieldInRelationshipTable' belong to many-to-many relationships only",
    );
    const manyToMany = { ...origin, cardinality: 'esriRelCardinalityManyToMany' };
    expect(problem(() => readRelationships([manyToMany], fields, 'l'))).toMatch(
      /needs 'relationshipTableId'/,
    );
    expect(
      problem(() => readRelationships([{ ...manyToMany, relationshipTableId: 2 }], fields, 'l')),
    ).toMatch(/needs 'keyFieldInRelationshipTable'/);
  });

  describe('many-to-many', () => {
    const linkFields = [
      { name: 'OBJECTID', type: 'esriFieldTypeOID' },
      { name: 'Park_Code', type: 'esriFieldTypeString' },
      { name: 'species', type: 'esriFieldTypeString' },
      { name: 'seen', type: 'esriFieldTypeDate' },
    ];
    const m2m = { cardinality: 'esriRelCardinalityManyToMany', relationshipTableId: 2 };
    const parks = { ...origin, ...m2m, keyFieldInRelationshipTable: 'park_code' };
    const species = { ...destination, ...m2m, keyFieldInRelationshipTable: 'SPECIES' };
    const threeLayers = (a: object, b: object, table = linkFields) => [
      { layerId: 0, definition: { fields, relationships: [a] } },
      { layerId: 1, definition: { fields, relationships: [b] } },
      { layerId: 2, definition: { fields: table } },
    ];

    it('pairs the sides through the relationship table, with its key columns as that table spells them', () => {
      expect(relationshipPair(threeLayers(parks, species), 0, 4).through).toEqual({
        layerId: 2,
        ownKey: 'Park_Code',
        relatedKey: 'species',
      });
      expect(relationshipPair(threeLayers(parks, species), 1, 4).through).toEqual({
        layerId: 2,
        ownKey: 'species',
        relatedKey: 'Park_Code',
      });
    });

    it('refuses a missing table, a missing or date key column, different tables and a one-sided cardinality', () => {
      const noTable = threeLayers(parks, species).slice(0, 2);
      expect(problem(() => relationshipPair(noTable, 0, 4))).toBe(
        'layer 0: relationship 4 names relationship table 2, which does not exist',
      );
      expect(
        problem(() =>
          relationshipPair(threeLayers(parks, { ...species, keyFieldInRelationshipTable: 'x' }), 0, 4),
        ),
      ).toBe("layer 0: 'x' is not a field of relationship table 2");
      expect(
        problem(() =>
          relationshipPair(threeLayers({ ...parks, keyFieldInRelationshipTable: 'seen' }, species), 0, 4),
        ),
      ).toMatch(/'seen' of relationship table 2 must hold whole numbers or text/);
      expect(
        problem(() => relationshipPair(threeLayers(parks, { ...species, relationshipTableId: 0 }), 0, 4)),
      ).toMatch(/name different relationship tables/);
      expect(problem(() => relationshipPair(threeLayers(parks, destination), 0, 4))).toMatch(
        /only one side of relationship 4 is many-to-many/,
      );
    });

    it('checks a declared relationship table before reading data', () => {
      const declared = [
        { layerId: 0, relationships: [parks] },
        { layerId: 1, relationships: [species] },
      ];
      expect(problem(() => checkDeclaredPairs(declared))).toBe(
        'layer 0: relationship 4 names relationship table 2, which is not published',
      );
      expect(() => checkDeclaredPairs([...declared, { layerId: 2, relationships: undefined }])).not.toThrow();
      const { relationshipTableId: _, ...withoutTable } = species;
      expect(
        problem(() =>
          checkDeclaredPairs([
            declared[0],
            { layerId: 1, relationships: [withoutTable] },
            { layerId: 2, relationships: [] },
          ]),
        ),
      ).toBe(
        "layer 1, relationships[0]: a many-to-many relationship needs 'relationshipTableId', a layer id",
      );
    });
  });

  describe('a layer related to itself (reflexive)', () => {
    const parent = { id: 2, name: 'follows', relatedTableId: 0, role: 'esriRelRoleOrigin', keyField: 'code' };
    const child = { ...parent, id: 3, role: 'esriRelRoleDestination', keyField: 'CODE' };
    const one = (relationships: object[]) => [{ layerId: 0, definition: { fields, relationships } }];

    it('pairs the layer’s two entries, each with its own id, by the other role and the name', () => {
      const both = one([origin, parent, child]);
      const down = relationshipPair(both, 0, 2);
      expect([down.relatedLayerId, down.relationship.id, down.counterpart.id, down.counterpart.role]).toEqual(
        [0, 2, 3, 'esriRelRoleDestination'],
      );
      const up = relationshipPair(both, 0, 3);
      expect([up.counterpart.id, up.counterpart.keyField]).toEqual([2, 'code']);
      expect(() => checkRelationshipPairs(one([parent, child]))).not.toThrow();
      expect(() =>
        checkDeclaredPairs([
          { layerId: 0, relationships: [parent, child] },
          { layerId: 1, relationships: [] },
        ]),
      ).not.toThrow();
    });

    it('goes through a relationship table, each entry with its own key column in it', () => {
      const m2m = { cardinality: 'esriRelCardinalityManyToMany', relationshipTableId: 1 };
      const links = {
        layerId: 1,
        definition: {
          fields: [
            { name: 'from_code', type: 'esriFieldTypeString' },
            { name: 'to_code', type: 'esriFieldTypeString' },
          ],
        },
      };
      const both = [
        ...one([
          { ...parent, ...m2m, keyFieldInRelationshipTable: 'FROM_CODE' },
          { ...child, ...m2m, keyFieldInRelationshipTable: 'to_code' },
        ]),
        links,
      ];
      expect(relationshipPair(both, 0, 2).through).toEqual({
        layerId: 1,
        ownKey: 'from_code',
        relatedKey: 'to_code',
      });
      expect(relationshipPair(both, 0, 3).through).toEqual({
        layerId: 1,
        ownKey: 'to_code',
        relatedKey: 'from_code',
      });
    });

    it('pairs entries of different names when they are the only ones of the other role', () => {
      expect(relationshipPair(one([parent, { ...child, name: 'followed by' }]), 0, 3).counterpart.id).toBe(2);
    });

    it('refuses an entry without its other side, and one with two candidates', () => {
      const lonely =
        'layer 0: relationship 2 relates layer 0 to itself, and the layer lists no single other side for it (an entry with its own id, naming layer 0, with the other role and the same name)';
      expect(problem(() => checkRelationshipPairs(one([parent])))).toBe(lonely);
      expect(problem(() => checkDeclaredPairs([{ layerId: 0, relationships: [parent] }]))).toBe(lonely);
      // An entry of the same role is no other side.
      expect(problem(() => relationshipPair(one([parent, { ...child, role: parent.role }]), 0, 2))).toBe(
        lonely,
      );
      const twins = one([parent, { ...child, name: 'a' }, { ...child, id: 5, name: 'b' }]);
      expect(problem(() => relationshipPair(twins, 0, 2))).toBe(lonely);
    });
  });

  it('checks the pairs a publish declares before reading data', () => {
    const declared = [
      { layerId: 0, relationships: [origin] },
      { layerId: 1, relationships: [destination] },
    ];
    expect(() => checkDeclaredPairs(declared)).not.toThrow();
    expect(problem(() => checkDeclaredPairs([declared[0], { layerId: 1, relationships: undefined }]))).toBe(
      'layer 0: layer 1 does not list relationship 4 back to layer 0',
    );
    expect(problem(() => checkDeclaredPairs([declared[0]]))).toBe(
      'layer 0: relationship 4 names layer 1, which is not published',
    );
  });
});
