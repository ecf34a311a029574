import { describe, expect, it } from 'vitest';
import { badRequest, GeoError, invalidToken, toGeoError, tokenRequired } from '../../lib/errors.js';

describe('the error model', () => {
  it('keeps the verbatim messages that clients match to refresh credentials', () => {
    expect(invalidToken().toBody()).toEqual({ code: 498, message: 'Invalid token.', details: [] });
    expect(tokenRequired().toBody()).toEqual({
      code: 499,
      message: 'Token Required',
      details: ['Token Required'],
      messageCode: 'GWM_0003',
    });
  });

  it('turns unknown errors into a 500 that does not leak the original message', () => {
    const e = toGeoError(new Error('password=hunter2 in connection string'));
    expect(e).toBeInstanceOf(GeoError);
    expect(e.code).toBe(500);
    expect(e.message).not.toContain('hunter2');
    expect(e.details.join(' ')).not.toContain('hunter2');
  });

  it('passes a GeoError through unchanged', () => {
    const e = badRequest('Invalid parameter', ['where']);
    expect(toGeoError(e)).toBe(e);
  });
});
