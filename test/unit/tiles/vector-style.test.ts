import { describe, expect, it } from 'vitest';
import { rendererStyleLayers, vectorTileStyle } from '../../../lib/tiles/vector-style.js';

const red = [255, 0, 0, 255];
const blue = [0, 0, 255, 128];

describe('the default style of a vector tile service', () => {
  it('draws a simple marker renderer as one circle layer, sizes in pixels at 96 DPI', () => {
    const layers = rendererStyleLayers(
      {
        name: 'cities',
        drawingInfo: {
          renderer: {
            type: 'simple',
            symbol: {
              type: 'esriSMS',
              size: 9,
              color: red,
              outline: { type: 'esriSLS', color: blue, width: 1.5 },
            },
          },
        },
      },
      'c',
    );
    // 9 pt = 12 px across, radius 6; 1.5 pt = 2 px; alpha 128/255.
    expect(layers).toEqual([
      {
        id: 'c',
        type: 'circle',
        source: 'esri',
        'source-layer': 'cities',
        paint: {
          'circle-radius': 6,
          'circle-color': 'rgb(255, 0, 0)',
          'circle-opacity': 1,
          'circle-stroke-color': 'rgb(0, 0, 255)',
          'circle-stroke-opacity': 0.502,
          'circle-stroke-width': 2,
        },
      },
    ]);
  });

  it('gives each unique value its filtered layers and the default symbol the other values', () => {
    const layers = rendererStyleLayers(
      {
        name: 'zones',
        drawingInfo: {
          transparency: 50,
          renderer: {
            type: 'uniqueValue',
            field1: 'kind',
            defaultSymbol: { type: 'esriSFS', style: 'esriSFSSolid', color: blue },
            uniqueValueInfos: [
              { value: 'park', symbol: { type: 'esriSFS', style: 'esriSFSSolid', color: red } },
              {
                value: 7,
                symbol: {
                  type: 'esriSFS',
                  style: 'esriSFSNull',
                  outline: { type: 'esriSLS', color: red, width: 3 },
                },
              },
            ],
          },
        },
      },
      'z',
    );
    expect(layers.map((l) => [l.id, l.type, l.filter])).toEqual([
      ['z-other', 'fill', ['!', ['in', ['to-string', ['get', 'kind']], ['literal', ['park', '7']]]]],
      ['z-0', 'fill', ['in', ['to-string', ['get', 'kind']], ['literal', ['park']]]],
      ['z-1-outline', 'line', ['in', ['to-string', ['get', 'kind']], ['literal', ['7']]]],
    ]);
    // Transparency 50 halves every opacity; 3 pt = 4 px.
    expect(layers[1].paint).toEqual({ 'fill-color': 'rgb(255, 0, 0)', 'fill-opacity': 0.5 });
    expect(layers[2].paint).toEqual({ 'line-color': 'rgb(255, 0, 0)', 'line-opacity': 0.5, 'line-width': 4 });
  });

  it('turns class breaks into ranges: the first closed below, the others open below, all closed above', () => {
    const layers = rendererStyleLayers(
      {
        name: 'roads',
        drawingInfo: {
          renderer: {
            type: 'classBreaks',
            field: 'lanes',
            minValue: 1,
            classBreakInfos: [
              {
                classMaxValue: 2,
                symbol: { type: 'esriSLS', style: 'esriSLSDash', color: red, width: 0.75 },
              },
              { classMaxValue: 6, symbol: { type: 'esriSLS', color: blue, width: 3 } },
            ],
          },
        },
      },
      'r',
    );
    const v = ['to-number', ['get', 'lanes'], 0];
    expect(layers.map((l) => l.filter)).toEqual([
      ['all', ['>=', v, 1], ['<=', v, 2]],
      ['all', ['>', v, 2], ['<=', v, 6]],
    ]);
    expect(layers[0].paint).toMatchObject({ 'line-dasharray': [4, 3], 'line-width': 1 });
  });

  it('wraps the layers in a version 8 style with one vector source', () => {
    const style = vectorTileStyle(
      [{ name: 'a', drawingInfo: { renderer: { type: 'simple', symbol: { type: 'esriSLS', color: red } } } }],
      { tiles: 'http://h/VectorTileServer/tile/{z}/{y}/{x}.pbf', minzoom: 0, maxzoom: 9 },
      'svc',
    );
    expect(style.version).toBe(8);
    expect(style.sources).toEqual({
      esri: {
        type: 'vector',
        tiles: ['http://h/VectorTileServer/tile/{z}/{y}/{x}.pbf'],
        minzoom: 0,
        maxzoom: 9,
      },
    });
    expect((style.layers as { 'source-layer': string }[])[0]['source-layer']).toBe('a');
  });
});
