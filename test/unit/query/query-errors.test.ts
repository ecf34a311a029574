import { describe, expect, it } from 'vitest';
import { dataExceptionError, invalidParameter } from '../../../lib/query/query-errors.js';

describe('query errors', () => {
  it('name the parameter and the problem under the generic message', () => {
    expect(invalidParameter('outSR', 'bad').toBody()).toEqual({
      code: 400,
      message: 'Unable to complete operation.',
      details: ["'outSR' parameter is invalid", 'bad'],
    });
  });

  it('shorten a problem that quotes a long client value', () => {
    const details = invalidParameter('where', `'${'x'.repeat(1000)}' is not a number`).details;
    expect(details[1]).toHaveLength(300);
    expect(details[1].endsWith('...')).toBe(true);
  });

  it('turn a database data exception into a 400 on the where parameter', () => {
    expect(dataExceptionError('22003')?.toBody()).toEqual({
      code: 400,
      message: 'Unable to complete operation.',
      details: [
        "'where' parameter is invalid",
        'the where clause could not be evaluated on the stored values',
      ],
    });
  });

  it('leave other database errors alone', () => {
    expect(dataExceptionError('42P01')).toBeNull();
    expect(dataExceptionError(undefined)).toBeNull();
  });
});
