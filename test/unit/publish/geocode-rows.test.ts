import { describe, expect, it } from 'vitest';
import { type Geocoder, geocodeRows } from '../../../activities/publish/geocoder.js';

/** Answers by city: Madison matched, Springfield tied, anything else unmatched. */
const geocoder: Geocoder = {
  async geocodeBatch(records) {
    return records.map((r) => ({
      objectId: r.objectId,
      location: r.city === 'Madison' || r.city === 'Springfield' ? { x: -89.4, y: 43.1 } : null,
      status: r.city === 'Madison' ? 'M' : r.city === 'Springfield' ? 'T' : 'U',
    }));
  },
};

describe('geocodeRows', () => {
  const rows = [['Madison'], ['Springfield'], ['Nowhere'], ['Springfield']];

  it('counts matched, tied and unmatched rows', async () => {
    const result = await geocodeRows(geocoder, { type: 'address', roles: { City: 0 } }, ['City'], rows, 10);
    expect(result.counts).toEqual({ matched: 1, tied: 2, unmatched: 1 });
  });

  it('places tied rows and names their positions so they can be kept for review', async () => {
    const result = await geocodeRows(geocoder, { type: 'address', roles: { City: 0 } }, ['City'], rows, 10);
    expect(result.tiedRows).toEqual([1, 3]);
    expect(result.geometries[1]).toEqual({ x: -89.4, y: 43.1 });
    expect(result.geometries[2]).toEqual({ reason: 'The address was not found.' });
  });
});
