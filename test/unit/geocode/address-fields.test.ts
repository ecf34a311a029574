import { describe, expect, it } from 'vitest';
import { batchesOf, batchRecordFromRow, checkAddressFields } from '../../../lib/geocode/address-fields.js';

describe('address fields of a published table', () => {
  const fields = { Address: 'A1-Address', City: 'A1-City', Region: 'A1-State', Postal: 'A1-Zip' };

  it('reads each role from its column, a numeric ZIP as text', () => {
    const row = {
      'A1-Address': ' 233 S Wacker Dr ',
      'A1-City': 'Chicago',
      'A1-State': 'IL',
      'A1-Zip': 60606,
    };
    expect(batchRecordFromRow(row, fields, 4)).toEqual({
      objectId: 4,
      address: '233 S Wacker Dr',
      city: 'Chicago',
      region: 'IL',
      postal: '60606',
    });
  });

  it('leaves out roles whose cell is empty or null', () => {
    expect(batchRecordFromRow({ 'A1-City': 'Paris', 'A1-Zip': null, 'A1-State': '' }, fields, 1)).toEqual({
      objectId: 1,
      city: 'Paris',
    });
  });

  it('refuses address fields naming columns the table lacks', () => {
    expect(() => checkAddressFields(fields, ['A1-Address', 'A1-City'])).toThrow(
      /columns the data does not have/,
    );
  });

  it('cuts records into batches no larger than MaxBatchSize', () => {
    expect(batchesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
