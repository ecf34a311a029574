import { describe, expect, it } from 'vitest';
import { explodedTilePath, parseExplodedTilePath, tileExtension } from '../../../lib/tiles/exploded-paths.js';

describe('exploded cache paths', () => {
  it('writes level in two decimals and row/col in 8 lower-case hex digits', () => {
    expect(explodedTilePath({ level: 5, row: 12, col: 26 })).toBe('L05/R0000000c/C0000001a.png');
  });

  it('uses the extension of the tile format', () => {
    expect(explodedTilePath({ level: 12, row: 1, col: 2 }, tileExtension('JPEG'))).toBe(
      'L12/R00000001/C00000002.jpg',
    );
    expect(tileExtension('PNG32')).toBe('png');
  });

  it('parses a prefixed path back into level, row, column and extension', () => {
    expect(parseExplodedTilePath('cache/_alllayers/L18/R0001a2b3/C000ff00f.PNG')).toEqual({
      level: 18,
      row: 0x1a2b3,
      col: 0xff00f,
      extension: 'png',
    });
  });

  it('refuses paths that are not tile paths', () => {
    expect(parseExplodedTilePath('L05/R0000C0000.bundle')).toBeUndefined();
    expect(parseExplodedTilePath('L5/R0000000c/C0000001a.png')).toBeUndefined();
  });
});
