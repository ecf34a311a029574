import { describe, expect, it } from 'vitest';
import {
  applyPolicyUpdate,
  DEFAULT_POLICY,
  type PasswordPolicy,
  passwordExpired,
  passwordViolations,
} from '../../../lib/portal/password-policy.js';

const strict: PasswordPolicy = {
  minLength: 10,
  minUpper: 2,
  minLower: 2,
  minLetter: 5,
  minDigit: 2,
  minOther: 1,
  expirationInDays: 30,
  historySize: 5,
};

describe('applyPolicyUpdate', () => {
  it('keeps fields that are not sent', () => {
    expect(applyPolicyUpdate(strict, { minUpper: '3' })).toEqual({ ...strict, minUpper: 3 });
  });

  it('takes an empty value as null', () => {
    expect(applyPolicyUpdate(strict, { minOther: '', historySize: '' })).toMatchObject({
      minOther: null,
      historySize: null,
    });
  });

  it('returns an empty minLength to the default of 8', () => {
    expect(applyPolicyUpdate(strict, { minLength: '' }).minLength).toBe(8);
  });

  it.each([
    ['minLength', '8'],
    ['minLength', '1000'],
    ['expirationInDays', '1'],
    ['expirationInDays', '1095'],
    ['historySize', '1'],
    ['historySize', '24'],
    ['minUpper', '1'],
  ] as const)('accepts %s=%s at the edge of its range', (field, value) => {
    expect(applyPolicyUpdate(DEFAULT_POLICY, { [field]: value })[field]).toBe(Number(value));
  });

  it.each([
    ['minLength', '7'],
    ['minLength', '1001'],
    ['expirationInDays', '1096'],
    ['historySize', '25'],
    ['minDigit', '0'],
    ['minLetter', 'two'],
    ['minLower', '2.5'],
  ] as const)('refuses %s=%s with a message naming the field', (field, value) => {
    expect(() => applyPolicyUpdate(DEFAULT_POLICY, { [field]: value })).toThrow(
      expect.objectContaining({ details: [expect.stringContaining(`'${field}'`)] }),
    );
  });

  it('reports every bad field at once', () => {
    expect(() => applyPolicyUpdate(DEFAULT_POLICY, { minLength: '2', historySize: '99' })).toThrow(
      expect.objectContaining({
        details: [expect.stringContaining('minLength'), expect.stringContaining('historySize')],
      }),
    );
  });
});

describe('passwordViolations', () => {
  it('accepts a password that meets the default policy', () => {
    expect(passwordViolations('abcdefg1', DEFAULT_POLICY)).toEqual([]);
  });

  it('names each rule a password breaks', () => {
    expect(passwordViolations('ab', strict)).toEqual([
      'Use at least 10 characters.',
      'Use at least 2 upper-case letters.',
      'Use at least 5 letters.',
      'Use at least 2 digits.',
      'Use at least 1 special (non-alphanumeric) character.',
    ]);
  });

  it('counts letters and digits of any script', () => {
    expect(passwordViolations('ÄÖüéçñ١٢!x', strict)).toEqual([]);
  });

  it('counts characters, not UTF-16 units, for the length', () => {
    expect(passwordViolations('😀😀😀😀😀😀😀1', DEFAULT_POLICY)).toEqual(['Use at least 1 letter.']);
  });
});

describe('passwordExpired', () => {
  const day = 86_400_000;
  it('never expires without expirationInDays', () => {
    expect(passwordExpired(0, DEFAULT_POLICY, 10_000 * day)).toBe(false);
  });

  it('expires once the days have passed', () => {
    expect(passwordExpired(0, strict, 30 * day - 1)).toBe(false);
    expect(passwordExpired(0, strict, 30 * day)).toBe(true);
  });
});
