import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAttempt } from '../../../db/repositories/sign-in-throttle.js';
import { signInThrottle } from '../../../db/schema/users.js';
import { createPasswordHasher } from '../../../infra/password-hasher.js';
import { hashPassword, verifyPassword } from '../../../infra/secrets.js';
import { type InProcessApp, inProcessApp } from './in-process-app.js';

// Three failures per name and six per address, a first lock of 2 s doubling up to 16 s.
const LIMITS = {
  SIGN_IN_USER_FAILURES: '3',
  SIGN_IN_ADDRESS_FAILURES: '6',
  SIGN_IN_DELAY_SECONDS: '2',
  SIGN_IN_MAX_DELAY_SECONDS: '16',
  SIGN_IN_RESET_MINUTES: '60',
};
const PASSWORD = 'Right-Passw0rd-1';

describe('failed sign-ins', { timeout: 60_000 }, () => {
  let app: InProcessApp;
  const signIn = (username: string, password: string, from: string) =>
    app.call('/sharing/rest/generateToken', { username, password, client: 'requestip' }, { from });
  const details = (res: { json: Record<string, any> }) => res.json.error?.details?.[0] as string | undefined;

  beforeAll(async () => {
    app = await inProcessApp(LIMITS);
    for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await app.addUser(name, PASSWORD);
  }, 120_000);
  afterAll(() => app?.close());

  it('refuses the attempt after the third failure for a name, even with the right password, for 2 s', async () => {
    for (let i = 0; i < 3; i++) {
      expect(details(await signIn('alice', 'wrong', '10.1.0.1'))).toBe('Invalid username or password.');
    }
    const refused = await signIn('alice', PASSWORD, '10.1.0.2');
    expect(refused.json.error.messageCode).toBe('SIGN_IN_LOCKED');
    expect(details(refused)).toBe(
      'Too many failed attempts for this user or from this address. Try again in 2 seconds.',
    );
    app.clock.now += 2_001;
    expect((await signIn('alice', PASSWORD, '10.1.0.2')).json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('doubles the lock with each further failure, up to the ceiling', async () => {
    const seconds: string[] = [];
    for (let i = 0; i < 3; i++) await signIn('bob', 'wrong', `10.2.0.${i}`);
    for (let i = 0; i < 5; i++) {
      const locked = await signIn('bob', 'wrong', `10.2.1.${i}`);
      seconds.push(details(locked)!.match(/in (\d+) seconds/)![1]!);
      app.clock.now += Number(seconds.at(-1)) * 1000 + 1;
      expect(details(await signIn('bob', 'wrong', `10.2.2.${i}`))).toBe('Invalid username or password.');
    }
    expect(seconds).toEqual(['2', '4', '8', '16', '16']);
  });

  it('leaves another user at another address unaffected while one name is locked', async () => {
    for (let i = 0; i < 4; i++) await signIn('carol', 'wrong', '10.3.0.1');
    expect((await signIn('carol', PASSWORD, '10.3.0.1')).json.error.messageCode).toBe('SIGN_IN_LOCKED');
    expect((await signIn('dave', PASSWORD, '10.3.0.2')).json.token).toBeTruthy();
  });

  it('locks an address that guesses many names, and only that address', async () => {
    for (let i = 0; i < 6; i++) {
      expect(details(await signIn(`nobody${i}`, 'wrong', '10.4.0.1'))).toBe('Invalid username or password.');
    }
    expect((await signIn('erin', PASSWORD, '10.4.0.1')).json.error.messageCode).toBe('SIGN_IN_LOCKED');
    expect((await signIn('erin', PASSWORD, '10.4.0.2')).json.token).toBeTruthy();
  });

  it('counts an IPv6 client by its /64, so rotating through its addresses does not help', async () => {
    for (let i = 0; i < 6; i++) await signIn(`v6guess${i}`, 'wrong', `2001:db8:7:1::${i + 1}`);
    expect((await signIn('erin', PASSWORD, '2001:db8:7:1::ffff')).json.error.messageCode).toBe(
      'SIGN_IN_LOCKED',
    );
    expect((await signIn('erin', PASSWORD, '2001:db8:7:2::1')).json.token).toBeTruthy();
  });

  it('forgets the failures of a name once its user signs in', async () => {
    await app.addUser('frank', PASSWORD);
    for (let i = 0; i < 2; i++) await signIn('frank', 'wrong', '10.5.0.1');
    expect((await signIn('frank', PASSWORD, '10.5.0.1')).json.token).toBeTruthy();
    for (let i = 0; i < 2; i++) await signIn('frank', 'wrong', '10.5.0.1');
    expect((await signIn('frank', PASSWORD, '10.5.0.1')).json.token).toBeTruthy();
  });

  it('counts wrong old passwords of a password change against the same name', async () => {
    await app.addUser('grace', PASSWORD);
    const change = (oldPassword: string) =>
      app.call(
        '/sharing/rest/community/users/grace/update',
        { oldPassword, password: 'New-Passw0rd-22' },
        { from: '10.6.0.1' },
      );
    for (let i = 0; i < 3; i++) expect(details(await change('wrong'))).toMatch(/oldPassword/);
    expect((await change(PASSWORD)).json.error.messageCode).toBe('SIGN_IN_LOCKED');
    expect((await signIn('grace', PASSWORD, '10.6.0.2')).json.error.messageCode).toBe('SIGN_IN_LOCKED');
  });

  it('refuses sign-ins beyond the hashing queue at once, without counting them as failures', async () => {
    await app.addUser('paul', PASSWORD);
    const shared = app.deps.passwords;
    // One hashing slot, no queue, and a check that takes as long as the test says.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.deps.passwords = createPasswordHasher(
      { concurrency: 1, queue: 0 },
      {
        hash: hashPassword,
        verify: async (p, s) => {
          await held;
          return verifyPassword(p, s);
        },
      },
    );
    try {
      const refused: number[] = [];
      // Two at once: a larger burst would itself reach the name's limit, as parallel guesses should.
      const burst = [0, 1].map((i) =>
        signIn('paul', 'wrong', `10.8.0.${i}`).then((res) => {
          if (res.json.error.code === 429) refused.push(i);
          return res;
        }),
      );
      // One is answered while the other is being checked (held); then the check may finish.
      for (let waited = 0; refused.length < 1 && waited < 20_000; waited += 10) {
        await new Promise((r) => setTimeout(r, 10));
      }
      release();
      const answers = await Promise.all(burst);
      expect(refused).toHaveLength(1);
      expect(answers[refused[0]!]!.json.error.message).toBe('Too many sign-in requests.');
      const checked = answers.find((_, i) => !refused.includes(i))!;
      expect(details(checked)).toBe('Invalid username or password.');
    } finally {
      release();
      app.deps.passwords = shared;
    }
    // One failure counted, not two: two more are still checked, then the name is locked.
    for (let i = 0; i < 2; i++) {
      expect(details(await signIn('paul', 'wrong', `10.8.1.${i}`))).toBe('Invalid username or password.');
    }
    expect((await signIn('paul', PASSWORD, '10.8.1.9')).json.error.messageCode).toBe('SIGN_IN_LOCKED');
  });

  it('clears away names and addresses quiet for longer than the reset time as new ones come', async () => {
    const { db } = app.deps.database;
    const rule = { limit: 3, delayMs: 2000, maxDelayMs: 16000, resetMs: 60 * 60_000 };
    const long = app.clock.now - 2 * rule.resetMs;
    for (let i = 0; i < 5; i++) await countAttempt(db, `user:sprayed${i}`, long, rule);
    await countAttempt(db, 'user:fresh', app.clock.now, rule);
    const keys = (await db.select({ key: signInThrottle.key }).from(signInThrottle)).map((r) => r.key);
    expect(keys.filter((k) => k.startsWith('user:sprayed'))).toEqual([]);
    expect(keys).toContain('user:fresh');
    expect(keys).toContain('user:carol');
  });

  it('answers an unknown name in the same time as a wrong password', async () => {
    const users = ['henry', 'irene', 'jack'];
    for (const u of users) await app.addUser(u, PASSWORD);
    const elapsed = async (username: string, from: string) => {
      const t = performance.now();
      const res = await signIn(username, 'wrong', from);
      expect(details(res)).toBe('Invalid username or password.');
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, so load on the machine falls on both alike; two attempts per known name stay under its limit.
    for (let i = 0; i < 6; i++) {
      known.push(await elapsed(users[i % 3]!, `10.7.0.${i}`));
      unknown.push(await elapsed(`ghost${i}`, `10.7.1.${i}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    // Without the stand-in hash an unknown name answers in a millisecond or two, scrypt takes tens.
    expect(median(known)).toBeGreaterThan(10);
    expect(median(unknown) / median(known)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(known)).toBeLessThan(2);
  });
});
