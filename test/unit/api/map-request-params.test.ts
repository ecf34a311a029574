import { describe, expect, it } from 'vitest';
import {
  readEnvelope,
  readExportFormat,
  readExportLayers,
  readIdentifyLayers,
  readImageSize,
  readLayerDefs,
} from '../../../api/services/map-request-params.js';
import { readTimeExtent } from '../../../lib/query/normalize/time.js';

const all = [0, 1, 2];
const byDefault = [0, 2];
const detailsOf = (work: () => unknown) => {
  try {
    work();
  } catch (e) {
    return (e as { details?: string[] }).details?.join(' ') ?? String(e);
  }
  throw new Error('expected an error');
};

describe('MapServer export, identify and find parameters', () => {
  it('reads layers show, hide, include and exclude against the default visibility', () => {
    expect(readExportLayers(undefined, all, byDefault)).toEqual([0, 2]);
    expect(readExportLayers('show:1', all, byDefault)).toEqual([1]);
    expect(readExportLayers('hide:0', all, byDefault)).toEqual([2]);
    expect(readExportLayers('include:1', all, byDefault)).toEqual([0, 1, 2]);
    expect(readExportLayers('EXCLUDE:2,0', all, byDefault)).toEqual([]);
    expect(detailsOf(() => readExportLayers('show:9', all, byDefault))).toMatch(/no layer 9/);
    expect(detailsOf(() => readExportLayers('0,1', all, byDefault))).toMatch(/show:, hide:/);
  });

  it('reads layerDefs as an object, a list and id:expression pairs', () => {
    expect([...readLayerDefs('{"0":"a = 1","2":""}', all)]).toEqual([[0, 'a = 1']]);
    expect([...readLayerDefs('[{"layerId":1,"where":"b > 2"}]', all)]).toEqual([[1, 'b > 2']]);
    expect([...readLayerDefs("0:name = 'x:y';2:c < 3", all)]).toEqual([
      [0, "name = 'x:y'"],
      [2, 'c < 3'],
    ]);
    expect(detailsOf(() => readLayerDefs('{"5":"a = 1"}', all))).toMatch(/no layer 5/);
  });

  it('reads an extent as numbers or an envelope object with its spatial reference', () => {
    expect(readEnvelope('bbox', '3,4,1,2')).toEqual({ bounds: [1, 2, 3, 4], sr: null });
    expect(
      readEnvelope('bbox', '{"xmin":1,"ymin":2,"xmax":3,"ymax":4,"spatialReference":{"wkid":4326}}'),
    ).toEqual({
      bounds: [1, 2, 3, 4],
      sr: { wkid: 4326 },
    });
    expect(detailsOf(() => readEnvelope('bbox', '1,1,1,5'))).toMatch(/empty/);
    expect(detailsOf(() => readEnvelope('bbox', undefined))).toMatch(/required/);
  });

  it('reads size, format, identify layers and time', () => {
    expect(readImageSize('size', undefined, { width: 400, height: 400 })).toEqual({
      width: 400,
      height: 400,
    });
    expect(readImageSize('imageDisplay', '600,550,96')).toEqual({ width: 600, height: 550, dpi: 96 });
    expect(detailsOf(() => readImageSize('size', '5000,10'))).toMatch(/outside 1\.\.4096/);
    expect(readExportFormat('JPEG')).toBe('jpg');
    expect(detailsOf(() => readExportFormat('gif'))).toMatch(/png, png8, png24, png32, jpg/);
    expect(readIdentifyLayers('visible:2,1', all)).toEqual({ option: 'visible', ids: [2, 1] });
    expect(readIdentifyLayers(undefined, all)).toEqual({ option: 'top', ids: undefined });
    expect(readTimeExtent('100,null')).toEqual({ start: 100, end: null });
    expect(readTimeExtent('100')).toEqual({ start: 100, end: 100 });
    expect(detailsOf(() => readTimeExtent('200,100'))).toMatch(/before the start/);
  });
});
