/**
 * The password policy: its wire shape, validation of securityPolicy/update values against the ranges of the
 * spec, and the check of a password against a policy. Pure: the caller loads the policy and the clock.
 */
import { badRequest } from '../errors.js';

export interface PasswordPolicy {
  minLength: number;
  minUpper: number | null;
  minLower: number | null;
  minLetter: number | null;
  minDigit: number | null;
  minOther: number | null;
  expirationInDays: number | null;
  historySize: number | null;
}

export const DEFAULT_POLICY: PasswordPolicy = {
  minLength: 8,
  minUpper: null,
  minLower: null,
  minLetter: 1,
  minDigit: 1,
  minOther: null,
  expirationInDays: null,
  historySize: null,
};

type Field = keyof PasswordPolicy;

/** Allowed range per field; `nullable` fields take an empty value as "no requirement". */
const RANGES: Record<Field, { min: number; max: number; nullable: boolean }> = {
  minLength: { min: 8, max: 1000, nullable: false },
  minUpper: { min: 1, max: 1000, nullable: true },
  minLower: { min: 1, max: 1000, nullable: true },
  minLetter: { min: 1, max: 1000, nullable: true },
  minDigit: { min: 1, max: 1000, nullable: true },
  minOther: { min: 1, max: 1000, nullable: true },
  expirationInDays: { min: 1, max: 1095, nullable: true },
  historySize: { min: 1, max: 24, nullable: true },
};

export const POLICY_FIELDS = Object.keys(RANGES) as Field[];

const INTEGER = /^[+]?\d+$/;

/**
 * The policy after applying the given wire values to `current`. Absent fields keep their value; an empty
 * value means null, except for minLength, which has no "no requirement" and returns to its default of 8.
 */
export function applyPolicyUpdate(
  current: PasswordPolicy,
  values: Partial<Record<Field, string | undefined>>,
): PasswordPolicy {
  const next: PasswordPolicy = { ...current };
  const problems: string[] = [];
  for (const field of POLICY_FIELDS) {
    const raw = values[field];
    if (raw === undefined) continue;
    const range = RANGES[field];
    const text = raw.trim();
    if (text === '' || text.toLowerCase() === 'null') {
      if (range.nullable) (next[field] as number | null) = null;
      else next.minLength = DEFAULT_POLICY.minLength;
      continue;
    }
    const value = Number(text);
    if (!INTEGER.test(text) || value < range.min || value > range.max) {
      const allowed = `an integer from ${range.min} to ${range.max}`;
      problems.push(`'${field}' must be ${range.nullable ? `empty or ${allowed}` : allowed}; got '${raw}'.`);
      continue;
    }
    next[field] = value;
  }
  if (problems.length > 0) throw badRequest('Invalid security policy.', problems);
  return next;
}

function count(password: string, pattern: RegExp): number {
  return [...password].filter((ch) => pattern.test(ch)).length;
}

/** Every rule the password breaks, in words; empty when it satisfies the policy. */
export function passwordViolations(password: string, policy: PasswordPolicy): string[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < policy.minLength) problems.push(`Use at least ${policy.minLength} characters.`);
  const rules: [number | null, RegExp, string][] = [
    [policy.minUpper, /\p{Lu}/u, 'upper-case letter'],
    [policy.minLower, /\p{Ll}/u, 'lower-case letter'],
    [policy.minLetter, /\p{L}/u, 'letter'],
    [policy.minDigit, /\p{Nd}/u, 'digit'],
    [policy.minOther, /[^\p{L}\p{Nd}]/u, 'special (non-alphanumeric) character'],
  ];
  for (const [min, pattern, what] of rules) {
    if (min !== null && count(password, pattern) < min) {
      problems.push(`Use at least ${min} ${what}${min === 1 ? '' : 's'}.`);
    }
  }
  return problems;
}

/** Throws the error a client sees when a new password breaks the policy. */
export function assertPasswordAllowed(password: string, policy: PasswordPolicy): void {
  const problems = passwordViolations(password, policy);
  if (problems.length > 0) {
    throw badRequest('The password does not meet the password policy of the organization.', problems);
  }
}

/** Whether a password set at `changedAt` has expired under the policy at `now`. */
export function passwordExpired(changedAt: number, policy: PasswordPolicy, now: number): boolean {
  if (policy.expirationInDays === null) return false;
  return now - changedAt >= policy.expirationInDays * 86_400_000;
}
