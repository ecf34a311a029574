import { describe, expect, it } from 'vitest';
import { readAppendParameters } from '../../../lib/edit/append-parameters.js';
import { appendEdits, appendFieldMap, upsertKeys } from '../../../lib/edit/append-plan.js';

const TARGETS = ['OBJECTID', 'Name', 'Kind', 'Depth'];
const none = { fieldMappings: [] };
/** The detail of the error `work` throws. */
function detailOf(work: () => unknown): string {
  try {
    work();
  } catch (e) {
    return (e as { details: string[] }).details[0];
  }
  throw new Error('nothing was thrown');
}

describe('append field mapping', () => {
  it('maps same-named columns case-insensitively, and fieldMappings override them', () => {
    const map = appendFieldMap(
      ['name', 'Type', 'DEPTH'],
      TARGETS,
      {
        fieldMappings: [{ name: 'kind', sourceName: 'type' }],
      },
      'OBJECTID',
    );
    expect([...map]).toEqual([
      ['Name', 'name'],
      ['Depth', 'DEPTH'],
      ['Kind', 'Type'],
    ]);
  });

  it('writes only appendFields, keeping the matching field', () => {
    const map = appendFieldMap(
      ['Name', 'Kind', 'Depth'],
      TARGETS,
      {
        ...none,
        appendFields: ['Depth'],
        upsertMatchingField: 'Kind',
      },
      'OBJECTID',
    );
    expect([...map.keys()]).toEqual(['Kind', 'Depth']);
  });

  it('refuses mappings to fields or columns that do not exist', () => {
    expect(
      detailOf(() =>
        appendFieldMap(['a'], TARGETS, { fieldMappings: [{ name: 'Nope', sourceName: 'a' }] }, 'OBJECTID'),
      ),
    ).toBe("fieldMappings names 'Nope', which is not a field of the layer.");
    expect(
      detailOf(() =>
        appendFieldMap(['a'], TARGETS, { fieldMappings: [{ name: 'Name', sourceName: 'b' }] }, 'OBJECTID'),
      ),
    ).toBe("fieldMappings names 'b', which the source does not have.");
  });
});

describe('append edits', () => {
  const rows = [
    { attributes: { k: 7, Name: 'seven' }, geometry: { x: 1, y: 2 } },
    { attributes: { k: null, Name: 'none' } },
    { attributes: { k: '9', Name: 'nine' } },
  ];
  const map = new Map([
    ['Kind', 'k'],
    ['Name', 'Name'],
  ]);

  it('updates the rows whose key names a feature (geometry kept when asked) and adds the others', () => {
    const keys = upsertKeys(rows, 'k');
    expect(keys).toEqual(['7', null, '9']);
    const edits = appendEdits(
      rows,
      map,
      keys,
      new Map([['7', 41]]),
      { skipUpdates: false, updateGeometry: false },
      'OBJECTID',
    );
    expect(edits.updates).toEqual([{ attributes: { Kind: 7, Name: 'seven', OBJECTID: 41 } }]);
    expect(edits.adds).toEqual([
      { attributes: { Kind: null, Name: 'none' } },
      { attributes: { Kind: '9', Name: 'nine' } },
    ]);
    const withGeometry = appendEdits(
      rows,
      map,
      keys,
      new Map([['7', 41]]),
      { skipUpdates: false, updateGeometry: true },
      'OBJECTID',
    );
    expect(withGeometry.updates[0].geometry).toEqual({ x: 1, y: 2 });
  });

  it('skipUpdates counts matched rows without editing them', () => {
    const edits = appendEdits(
      rows,
      map,
      upsertKeys(rows, 'k'),
      new Map([['9', 3]]),
      { skipUpdates: true, updateGeometry: true },
      'OBJECTID',
    );
    expect([edits.updates.length, edits.adds.length, edits.skipped]).toEqual([0, 2, 1]);
  });

  it('skipInserts leaves out the rows that match no feature', () => {
    const edits = appendEdits(
      rows,
      map,
      upsertKeys(rows, 'k'),
      new Map([['9', 3]]),
      {
        skipUpdates: false,
        skipInserts: true,
        updateGeometry: true,
      },
      'OBJECTID',
    );
    expect(edits.adds).toEqual([]);
    expect(edits.updates).toEqual([{ attributes: { Kind: '9', Name: 'nine', OBJECTID: 3 } }]);
    expect(edits.skipped).toBe(2);
  });

  it('refuses two rows with one key', () => {
    expect(detailOf(() => upsertKeys([{ attributes: { k: 1 } }, { attributes: { k: '1' } }], 'k'))).toMatch(
      /'1'.*row 2/,
    );
  });
});

describe('append parameters', () => {
  it('reads defaults and refuses what append does not do', () => {
    const o = readAppendParameters({ f: 'json', appenditemid: 'abc' });
    expect([o.upsert, o.skipUpdates, o.updateGeometry, o.rollbackOnFailure, o.async]).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(() => readAppendParameters({ appenditemid: 'abc', upsertmatchingfield: 'Kind' })).toThrow();
    expect(() => readAppendParameters({ appenditemid: 'abc', appenduploadformat: 'kml' })).toThrow();
    expect(() => readAppendParameters({ appenditemid: 'abc', appenduploadid: 'u1' })).toThrow();
    expect(() => readAppendParameters({ appenditemid: 'abc', skipinserts: 'true' })).toThrow();
    expect(detailOf(() => readAppendParameters({ appenditemid: 'abc', truncateexisting: 'true' }))).toBe(
      "'truncateExisting' is not supported by this server's append.",
    );
    expect(() =>
      readAppendParameters({ appenditemid: 'abc', appendsourceinfo: '{"locationType":"address"}' }),
    ).toThrow();
    expect(
      readAppendParameters({
        appenditemid: 'a',
        appendsourceinfo: '{"latitudeFieldName":"Y","longitudeFieldName":"X"}',
      }).coordinates,
    ).toEqual({ xField: 'X', yField: 'Y' });
    expect(readAppendParameters({ appenditemid: 'a', appendfields: 'Name, Kind' }).appendFields).toEqual([
      'Name',
      'Kind',
    ]);
  });
});
