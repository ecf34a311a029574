import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import { answerTransform } from '../../../lib/query/quantize-answer.js';
import { quantizeGeometry, quantizeParts } from '../../../lib/query/quantize-geometry.js';
import { normalizeQuantizationParameters } from '../../../lib/query/quantize-parameters.js';
import {
  finestOrdinateGrid,
  finestTransform,
  type QuantizeTransform,
  requestedTransform,
  transformJson,
} from '../../../lib/query/quantize-transform.js';

// A 100 × 100 world with one-unit cells: upper left origin at (0, 100), lower left at (0, 0).
const upperLeft: QuantizeTransform = { originPosition: 'upperLeft', scale: [1, 1], translate: [0, 100] };
const lowerLeft: QuantizeTransform = { originPosition: 'lowerLeft', scale: [1, 1], translate: [0, 0] };
const line = {
  paths: [
    [
      [10.2, 89.6],
      [10.4, 89.9],
      [15, 80],
      [15.3, 80.2],
    ],
  ],
};

function problem(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof GeoError) return e.details.join(' | ');
    throw e;
  }
  throw new Error('expected a GeoError');
}

describe('quantizeGeometry', () => {
  it('writes a point as absolute cells, y counted downwards from an upper left origin', () => {
    expect(quantizeGeometry({ x: 12.6, y: 40.4 }, upperLeft, 'view')).toEqual({ x: 13, y: 60 });
    expect(quantizeGeometry({ x: 12.6, y: 40.4 }, lowerLeft, 'view')).toEqual({ x: 13, y: 40 });
  });

  it('delta-encodes a path after its first vertex and, in view mode, drops vertices in the same cell', () => {
    // Cells (10,10) (10,10) (15,20) (15,20): the repeats go, the jump is +5, +10.
    expect(quantizeGeometry(line, upperLeft, 'view')).toEqual({
      paths: [
        [
          [10, 10],
          [5, 10],
        ],
      ],
    });
    // From the lower left the same jump goes down: cells (10,90) then (15,80).
    expect(quantizeGeometry(line, lowerLeft, 'view')).toEqual({
      paths: [
        [
          [10, 90],
          [5, -10],
        ],
      ],
    });
  });

  it('keeps every vertex in edit mode, repeats written as zero steps', () => {
    expect(quantizeGeometry(line, upperLeft, 'edit')).toEqual({
      paths: [
        [
          [10, 10],
          [0, 0],
          [5, 10],
          [0, 0],
        ],
      ],
    });
  });

  it('starts every ring from absolute cells and drops, in view mode, a ring that fits in one cell', () => {
    const outer = [
      [0, 0],
      [0, 50],
      [50, 50],
      [50, 0],
      [0, 0],
    ];
    const speck = [
      [20.1, 20.1],
      [20.2, 20.3],
      [20.3, 20.1],
      [20.1, 20.1],
    ];
    expect(quantizeGeometry({ rings: [outer, speck] }, upperLeft, 'view')).toEqual({
      rings: [
        [
          [0, 100],
          [0, -50],
          [50, 0],
          [0, 50],
          [-50, 0],
        ],
      ],
    });
    expect(quantizeGeometry({ rings: [outer, speck] }, upperLeft, 'edit')).toMatchObject({
      rings: [
        expect.anything(),
        [
          [20, 80],
          [0, 0],
          [0, 0],
          [0, 0],
        ],
      ],
    });
  });

  it('leaves a polygon smaller than a cell without geometry in view mode', () => {
    const speck = [
      [
        [20.1, 20.1],
        [20.2, 20.3],
        [20.1, 20.1],
      ],
    ];
    expect(quantizeGeometry({ rings: speck }, upperLeft, 'view')).toBeNull();
    expect(quantizeGeometry({ paths: speck }, upperLeft, 'view')).toBeNull();
  });

  it('delta-encodes multipoints and drops repeated cells in view mode', () => {
    const points = [
      [1, 1],
      [1.2, 1.1],
      [5, 5],
    ];
    expect(quantizeGeometry({ points }, upperLeft, 'view')).toEqual({
      points: [
        [1, 99],
        [4, -4],
      ],
    });
  });

  it('gives PBF the same cells flat: vertices per part, then every part in a row', () => {
    const twoPaths = {
      paths: [
        ...line.paths,
        [
          [50, 50],
          [52, 50],
        ],
      ],
    };
    expect(quantizeParts(twoPaths, upperLeft, 'view')).toEqual({
      lengths: [2, 2],
      coords: [10, 10, 5, 10, 50, 50, 2, 0],
    });
    expect(quantizeParts({ x: 12.6, y: 40.4 }, upperLeft, 'view')).toEqual({ lengths: [], coords: [13, 60] });
  });

  it('puts z then m cells after x and y of every kept vertex, delta-encoded, on their own grids', () => {
    // z cells of 0.5 from 100, m cells of 10 from 0.
    const zm: QuantizeTransform = {
      ...upperLeft,
      z: { scale: 0.5, translate: 100 },
      m: { scale: 10, translate: 0 },
    };
    const layout = { hasZ: true, hasM: true };
    const path = {
      paths: [
        [
          [10.2, 89.6, 101, 20],
          [10.4, 89.9, 999, 999], // same x/y cell: dropped in view mode, z and m with it
          [15, 80, 99.5, 50],
        ],
      ],
    };
    // x/y as above (10, 10 then 5, 10); z cells 2 then -1 (step -3); m cells 2 then 5 (step 3).
    expect(quantizeParts(path, zm, 'view', layout)).toEqual({
      lengths: [2],
      coords: [10, 10, 2, 2, 5, 10, -3, 3],
    });
    expect(quantizeParts({ x: 12.6, y: 40.4, z: 103, m: 70 }, zm, 'view', layout)).toEqual({
      lengths: [],
      coords: [13, 60, 6, 7],
    });
    // An XYM vertex has its m third.
    const m = { ...upperLeft, m: { scale: 10, translate: 0 } };
    expect(quantizeParts({ points: [[1, 99, 40]] }, m, 'edit', { hasZ: false, hasM: true })).toEqual({
      lengths: [1],
      coords: [1, 1, 4],
    });
    // A vertex without its m (stored as null) cannot be sent; the answer says so by name.
    expect(
      problem(() =>
        quantizeParts({ points: [[1, 99, null as unknown as number]] }, m, 'edit', {
          hasZ: false,
          hasM: true,
        }),
      ),
    ).toMatch(/'returnM' parameter is invalid \| a vertex has no m value/);
  });

  it('grids z and m by the finest power of ten that keeps their span within 32 bits', () => {
    // 25 / 1e-8 = 2.5e9 cells is past 2^31 - 1, 25 / 1e-7 = 2.5e8 is not.
    expect(finestOrdinateGrid(-5, 20)).toEqual({ scale: 1e-7, translate: -5 });
    expect(finestOrdinateGrid(0, 1e6)).toEqual({ scale: 0.001, translate: 0 });
    expect(finestOrdinateGrid(7, 7)).toEqual({ scale: 1e-9, translate: 7 });
  });

  it('refuses a grid too fine for 32-bit cells, naming quantizationParameters', () => {
    const fine: QuantizeTransform = { originPosition: 'upperLeft', scale: [1e-9, 1e-9], translate: [0, 0] };
    expect(problem(() => quantizeGeometry({ x: 1e6, y: 0 }, fine, 'view'))).toMatch(
      /'quantizationParameters' parameter is invalid \| the grid is too fine/,
    );
  });
});

describe('transforms', () => {
  const params = normalizeQuantizationParameters('{"mode":"view"}')!;

  it('puts the origin at the extent corner and the tolerance as the cell size', () => {
    const q = { ...params, tolerance: 2.5 };
    expect(requestedTransform(q, [10, 20, 110, 220], null, null)).toEqual({
      originPosition: 'upperLeft',
      scale: [2.5, 2.5],
      translate: [10, 220],
    });
    expect(requestedTransform({ ...q, originPosition: 'lowerLeft' }, [10, 20, 110, 220], null, null)).toEqual(
      {
        originPosition: 'lowerLeft',
        scale: [2.5, 2.5],
        translate: [10, 20],
      },
    );
  });

  it('falls back to maxAllowableOffset, then to a grid of 10^6 cells across the extent', () => {
    expect(requestedTransform(params, [0, 0, 2e6, 1e6], null, 5).scale).toEqual([5, 5]);
    expect(requestedTransform(params, [0, 0, 2e6, 1e6], null, null).scale).toEqual([2, 2]);
    // Without an extent, the answer's own bounds.
    expect(requestedTransform(params, null, [0, 0, 3e6, 4e6], null)).toEqual({
      originPosition: 'upperLeft',
      scale: [4, 4],
      translate: [0, 4e6],
    });
  });

  it('picks for PBF without parameters the smallest power of ten whose cells span the bounds in 32 bits', () => {
    expect(finestTransform([0, 0, 1, 1]).scale).toEqual([1e-9, 1e-9]);
    // 10 units need 10^10 cells of 1e-9: too many; 1e-8 gives 10^9.
    expect(finestTransform([0, 0, 10, 5]).scale).toEqual([1e-8, 1e-8]);
    // The Web Mercator world (4e7 m) needs cells of at least 0.0186 m: 0.1.
    expect(finestTransform([-2e7, -2e7, 2e7, 2e7])).toEqual({
      originPosition: 'upperLeft',
      scale: [0.1, 0.1],
      translate: [-2e7, 2e7],
    });
  });

  it('writes the JSON transform with unused z and m members', () => {
    expect(transformJson(upperLeft)).toEqual({
      originPosition: 'upperLeft',
      scale: [1, 1, 0, 0],
      translate: [0, 100, 0, 0],
    });
  });

  it('projects an extent given in another spatial reference into the output one', () => {
    const t = answerTransform(
      {
        format: 'json',
        maxAllowableOffset: null,
        geometry: null,
        quantization: normalizeQuantizationParameters(
          '{"tolerance":1,"extent":{"xmin":0,"ymin":0,"xmax":1,"ymax":1,"spatialReference":{"wkid":4326}}}',
        ),
      },
      [{ shape: { x: 0, y: 0 } }],
      { wkid: 102100, latestWkid: 3857 },
      { wkid: 102100, latestWkid: 3857 },
    );
    // Latitude 1° on the spherical Mercator: R · ln(tan(π/4 + φ/2)).
    const ymax = 6378137 * Math.log(Math.tan(Math.PI / 4 + Math.PI / 360));
    expect(t?.translate[0]).toBeCloseTo(0, 6);
    expect(t?.translate[1]).toBeCloseTo(ymax, 3);
    expect(quantizeGeometry({ x: 0, y: 0 }, t!, 'view')).toEqual({ x: 0, y: Math.round(ymax) });
  });
});

describe('normalizeQuantizationParameters', () => {
  it('defaults to view mode from the upper left, tolerance and extent left to the answer', () => {
    expect(normalizeQuantizationParameters('{}')).toEqual({
      mode: 'view',
      originPosition: 'upperLeft',
      tolerance: null,
      extent: null,
    });
    expect(normalizeQuantizationParameters(undefined)).toBeNull();
  });

  it('reads what the Maps SDK sends', () => {
    const sdk =
      '{"extent":{"xmin":-100,"ymin":-50,"xmax":100,"ymax":50,"spatialReference":{"wkid":102100,"latestWkid":3857}},"mode":"view","originPosition":"upperLeft","tolerance":0.5}';
    expect(normalizeQuantizationParameters(sdk)).toEqual({
      mode: 'view',
      originPosition: 'upperLeft',
      tolerance: 0.5,
      extent: { bounds: [-100, -50, 100, 50], spatialReference: { wkid: 102100, latestWkid: 3857 } },
    });
  });

  it.each([
    ['not json', /not valid JSON/],
    ['[1]', /must be a JSON object/],
    ['{"mode":"draw"}', /mode 'draw' is not one of view, edit/],
    ['{"originPosition":"center"}', /originPosition 'center' is not one of upperLeft, lowerLeft/],
    ['{"tolerance":0}', /tolerance must be a positive number/],
    ['{"tolerance":"1"}', /tolerance must be a positive number/],
    ['{"extent":{"xmin":5,"ymin":0,"xmax":1,"ymax":1}}', /xmin <= xmax/],
    ['{"extent":{"xmin":0,"ymin":0,"xmax":1}}', /extent.ymax must be a number/],
    ['{"scale":2}', /unknown member 'scale'/],
  ])('refuses %s', (text, reason) => {
    expect(problem(() => normalizeQuantizationParameters(text))).toMatch(reason);
  });
});
