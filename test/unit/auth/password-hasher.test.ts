import { describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../../infra/password-hasher.js';
import { hashPassword } from '../../../infra/secrets.js';

describe('the password hasher', { timeout: 60_000 }, () => {
  it('runs at most `concurrency` hashes, queues `queue` more and refuses the rest at once', async () => {
    const hasher = createPasswordHasher({ concurrency: 2, queue: 2 });
    const stored = await hashPassword('Some-Passw0rd-1');
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, hasher.load().running);
    }, 1);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 7 }, () => hasher.verify('Some-Passw0rd-1', stored)),
    );
    clearInterval(watch);
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === true)).toHaveLength(4);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(3);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: 429,
      message: 'Too many sign-in requests.',
    });
    expect(most).toBe(2);
    expect(hasher.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('takes new work again once the queue drains', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, queue: 0 });
    const first = hasher.hash('First-Passw0rd-1');
    await expect(hasher.hash('Second-Passw0rd-2')).rejects.toMatchObject({ code: 429 });
    await first;
    expect(await hasher.verify('First-Passw0rd-1', await first)).toBe(true);
  });

  it('checks a password of an unknown user with a full hash and says no', async () => {
    const hasher = createPasswordHasher({ concurrency: 1, queue: 1 });
    const stored = await hashPassword('Some-Passw0rd-1');
    const time = async (run: () => Promise<boolean>) => {
      const t = performance.now();
      expect(await run()).toBe(false);
      return performance.now() - t;
    };
    const unknown = await time(() => hasher.verify('Some-Passw0rd-1', undefined));
    const wrong = await time(() => hasher.verify('Other-Passw0rd-2', stored));
    expect(unknown).toBeGreaterThan(wrong / 3);
  });
});
