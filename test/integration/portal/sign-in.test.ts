import { describe, expect, it } from 'vitest';
import { call, signIn } from '../support/portal-client.js';
import { newUser } from './portal-helpers.js';

describe('sign-in throttling on PostgreSQL', () => {
  it('lets exactly five of ten parallel wrong guesses for one name be checked and locks the rest out', async () => {
    const u = await newUser();
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('/sharing/rest/generateToken', { username: u.username, password: `wrong-${i}` }),
      ),
    );
    const outcomes = guesses.map((g) => g.json.error?.messageCode ?? g.json.error?.details?.[0]);
    expect(outcomes.filter((o) => o === 'Invalid username or password.')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'SIGN_IN_LOCKED')).toHaveLength(5);
    // The fifth counted guess locked the name for the first delay (30 s in the test product).
    const locked = guesses.find((g) => g.json.error?.messageCode === 'SIGN_IN_LOCKED')!;
    expect(locked.json.error.details[0]).toMatch(
      /^Too many failed attempts .* Try again in (2\d|3[01]) seconds\.$/,
    );
  });

  it('leaves other users signing in meanwhile alone', async () => {
    const locked = await newUser();
    for (let i = 0; i < 6; i++)
      await call('/sharing/rest/generateToken', { username: locked.username, password: 'x' });
    const other = await newUser();
    expect(await signIn(other.username, other.password)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
