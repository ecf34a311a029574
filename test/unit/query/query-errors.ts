import { expect } from 'vitest';
import { GeoError } from '../../../lib/errors.js';

/** Runs `fn`, expects the query 400 error naming `parameter`, and returns its problem line. */
export function problemOf(parameter: string, fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GeoError);
    const err = e as GeoError;
    expect(err.code).toBe(400);
    expect(err.message).toBe('Unable to complete operation.');
    expect(err.details[0]).toBe(`'${parameter}' parameter is invalid`);
    return err.details[1];
  }
  throw new Error(`expected a '${parameter}' error`);
}
