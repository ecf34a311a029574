/** The profile fields a user record takes from createUser and update parameters, validated. */
import type { UserRow } from '../../db/repositories/users.js';
import { badRequest } from '../../lib/errors.js';
import type { RequestParams } from '../params.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_NAME = 128;

export function readProfile(params: RequestParams): Partial<UserRow> {
  const profile: Partial<UserRow> = {};
  const problems: string[] = [];
  const text = (name: string, max: number) => {
    const value = params.get(name);
    if (value === undefined) return undefined;
    if (value.length > max) problems.push(`'${name}' must be at most ${max} characters.`);
    return value.trim();
  };
  const firstName = text('firstName', MAX_NAME);
  const lastName = text('lastName', MAX_NAME);
  const fullName = text('fullName', MAX_NAME * 2 + 1);
  const email = text('email', 256);
  const description = text('description', 32_000);
  if (email !== undefined && !EMAIL.test(email)) problems.push(`'email' must be an e-mail address.`);
  if (problems.length > 0) throw badRequest('Invalid or missing input parameters.', problems);
  if (firstName !== undefined) profile.firstName = firstName;
  if (lastName !== undefined) profile.lastName = lastName;
  if (fullName !== undefined) profile.fullName = fullName;
  if (email !== undefined) profile.email = email;
  if (description !== undefined) profile.description = description;
  return profile;
}
