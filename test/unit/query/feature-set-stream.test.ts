import { describe, expect, it } from 'vitest';
import {
  featureSetJsonBytes,
  type ResponseLayer,
  renderFeatureSet,
} from '../../../lib/query/feature-response.js';
import type { CatalogField } from '../../../lib/query/field-catalog.js';
import type { FeatureRow } from '../../../lib/query/row-mapping.js';

const points: ResponseLayer = {
  objectIdField: 'OBJECTID',
  globalIdField: '',
  geometryType: 'esriGeometryPoint',
  spatialReference: { wkid: 102100, latestWkid: 3857 },
};
const fields: CatalogField[] = [
  { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID', alias: 'OBJECTID' },
  // A name and alias that hold the very text the features key is found by.
  { name: 'note', column: 'a_0', type: 'esriFieldTypeString', alias: ',"features":[],' },
  { name: 'value', column: 'a_1', type: 'esriFieldTypeDouble', alias: 'value' },
] as CatalogField[];

function rows(n: number): FeatureRow[] {
  return Array.from({ length: n }, (_, i) => ({
    objectid: i + 1,
    attrs: { OBJECTID: i + 1, note: i % 3 === 0 ? null : `n"${i}\u00e9`, value: i / 8 },
    shape: i % 5 === 0 ? null : { x: i * 1.5, y: -i },
  }));
}

/** The pieces' bytes joined and read as UTF-8 (a piece may end inside no character: each holds whole features). */
const joined = (pieces: Iterable<Uint8Array>) => Buffer.concat([...pieces]).toString('utf8');

describe('featureSetJsonBytes', () => {
  it('writes a small answer exactly as written out by hand', () => {
    const text = joined(
      featureSetJsonBytes({
        layer: points,
        fields: fields.slice(0, 1),
        rows: [{ objectid: 7, attrs: { OBJECTID: 7 }, shape: { x: 1, y: 2 } }],
        exceededTransferLimit: true,
        returnGeometry: true,
      }),
    );
    expect(text).toBe(
      '{"objectIdFieldName":"OBJECTID","uniqueIdField":{"name":"OBJECTID","isSystemMaintained":true},' +
        '"globalIdFieldName":"","geometryType":"esriGeometryPoint","spatialReference":{"wkid":102100,"latestWkid":3857},' +
        '"fields":[{"name":"OBJECTID","type":"esriFieldTypeOID","alias":"OBJECTID","sqlType":"sqlTypeOther","domain":null,"defaultValue":null}],' +
        '"features":[{"attributes":{"OBJECTID":7},"geometry":{"x":1,"y":2}}],"exceededTransferLimit":true}',
    );
  });

  it('equals the whole rendering byte for byte, for any piece size and row count', () => {
    const tables: ResponseLayer = { ...points, geometryType: null };
    for (const layer of [points, tables])
      for (const n of [0, 1, 2, 499, 500, 501, 1234])
        for (const per of [1, 7, 500])
          for (const returnGeometry of [true, false]) {
            const input = {
              layer,
              fields,
              exceededTransferLimit: n > 1000,
              returnGeometry,
              geometryPrecision: 2,
            };
            const whole = JSON.stringify(renderFeatureSet({ ...input, rows: rows(n) }));
            const pieces = [...featureSetJsonBytes({ ...input, rows: rows(n) }, per)];
            expect(Buffer.concat(pieces).equals(Buffer.from(whole, 'utf8'))).toBe(true);
            expect(joined(pieces)).toBe(whole);
          }
  });

  it('never holds the answer whole: 100,000 features in pieces of at most 500, rows read as written', () => {
    let read = 0;
    function* lazyRows() {
      for (const row of rows(100_000)) {
        read++;
        yield row;
      }
    }
    const pieces = featureSetJsonBytes(
      { layer: points, fields, rows: lazyRows(), exceededTransferLimit: false, returnGeometry: true },
      500,
    );
    pieces.next(); // the head
    pieces.next(); // the first 500 features
    expect(read).toBeLessThanOrEqual(501);
    let largest = 0;
    let total = 0;
    let count = 2;
    for (const piece of pieces) {
      largest = Math.max(largest, piece.length);
      total += piece.length;
      count++;
    }
    expect(read).toBe(100_000);
    expect(count).toBe(1 + 200 + 1);
    // Each piece is a 200th of the features' text, give or take.
    expect(largest).toBeLessThan(total / 150);
  });
});
