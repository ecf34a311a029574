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

  it('refuses date keys, many-to-many, unknown keys and repeated ids', () => {
    expect(problem(() => readRelationships([{ ...origin, keyField: 'when' }], fields, 'l'))).toMatch(
      /whole numbers or text/,
    );
    const manyToMany = { ...origin, cardinality: 'esriRelCardinalityManyToMany' };
    expect(problem(() => readRelationships([manyToMany], fields, 'l'))).toMatch(
      /ManyToMany' is not supported/,
    );
    expect(
      problem(() => readRelationships([{ ...origin, keyFieldInRelationshipTable: 'x' }], fields, 'l')),
    ).toMatch(/keyFieldInRelationshipTable/);
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
