/**
 * The one way the API hashes and checks passwords. scrypt runs on libuv's small thread pool, which file
 * reads, zlib and DNS share: a flood of sign-ins must neither queue there without bound nor starve them.
 * So at most `concurrency` hashes run at once, at most `queue` wait, and the rest are refused at once.
 * Checking a password of an unknown user costs the same hash, so the answer takes the same time.
 */
import { GeoError } from '../lib/errors.js';
import { hashPassword, verifyPassword } from './secrets.js';

export interface PasswordHashing {
  concurrency: number;
  queue: number;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Whether `password` matches `stored`; without a stored hash the same work is done and false returned. */
  verify(password: string, stored: string | undefined): Promise<boolean>;
  /** Hashes running and waiting now. */
  load(): { running: number; waiting: number };
}

/**
 * A hash in the stored format with the product's scrypt parameters and an all-zero salt and key: checking
 * a password against it takes as long as against a real one and never matches in practice.
 */
const UNKNOWN_USER_HASH = `scrypt$32768$8$1$${'A'.repeat(22)}$${'A'.repeat(43)}`;

export const hashingBusy = () =>
  new GeoError({
    code: 429,
    message: 'Too many sign-in requests.',
    details: ['The server is checking too many passwords at once. Try again in a few seconds.'],
  });

/** The hashing itself; scrypt unless a test passes a stand-in it can hold. */
export interface HashFunctions {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

const SCRYPT: HashFunctions = { hash: hashPassword, verify: verifyPassword };

export function createPasswordHasher(
  { concurrency, queue }: PasswordHashing,
  functions: HashFunctions = SCRYPT,
): PasswordHasher {
  let running = 0;
  const waiting: Array<() => void> = [];

  async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running >= concurrency) {
      if (waiting.length >= queue) throw hashingBusy();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so `running` never exceeds the limit.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  return {
    hash: (password) => limited(() => functions.hash(password)),
    async verify(password, stored) {
      const ok = await limited(() => functions.verify(password, stored ?? UNKNOWN_USER_HASH));
      return stored !== undefined && ok;
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
