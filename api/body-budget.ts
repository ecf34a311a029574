/**
 * How much body a request may send. Until the caller shows a valid token (in the query string, an
 * Authorization header or a `token` field of the body itself) a body may hold `maxAnonymousBytes`;
 * after that `maxFormBytes`. The token is looked up only when a body outgrows the anonymous budget, so
 * ordinary small requests cost nothing extra.
 */
import { GeoError, invalidToken, tokenRequired } from '../lib/errors.js';

export interface BodyLimits {
  maxFormBytes: number;
  maxAnonymousBytes: number;
}

export class BodyBudget {
  private token: string | undefined;
  private verdict: Promise<boolean> | undefined;
  /** Bytes the body may hold as far as is known: the anonymous budget until a token is verified. */
  allowed: number;

  constructor(
    private readonly limits: BodyLimits,
    initialToken: string | undefined,
    private readonly signsIn: (token: string) => Promise<boolean>,
  ) {
    this.token = initialToken || undefined;
    this.allowed = limits.maxAnonymousBytes;
  }

  /** A token seen in the body; one from the query string or a header is already known. */
  sawToken(token: string): void {
    if (!this.token && token) this.token = token;
  }

  get hasToken(): boolean {
    return this.token !== undefined;
  }

  /** Whether the caller signed in with a valid token; looked up once. */
  signedIn(): Promise<boolean> {
    const token = this.token;
    if (!token) return Promise.resolve(false);
    this.verdict ??= this.signsIn(token).catch(() => false);
    return this.verdict;
  }

  /** Refuses `bytes` of body when they exceed what the caller may send. */
  async check(bytes: number): Promise<void> {
    if (bytes <= this.limits.maxAnonymousBytes) return;
    if (bytes > this.limits.maxFormBytes) throw bodyTooLarge(this.limits.maxFormBytes, 'FORM_MAX_BYTES');
    if (!(await this.signedIn()))
      throw bodyTooLarge(
        this.limits.maxAnonymousBytes,
        'ANONYMOUS_BODY_MAX_BYTES',
        'Requests without a valid token',
      );
    this.allowed = this.limits.maxFormBytes;
  }

  /** Files are taken only from signed-in callers: 499 without a token, 498 with a refused one. */
  async checkFiles(): Promise<void> {
    if (!this.hasToken) throw tokenRequired();
    if (!(await this.signedIn())) throw invalidToken();
  }
}

export function bodyTooLarge(limit: number, variable: string, who = 'Requests'): GeoError {
  return new GeoError({
    code: 413,
    message: 'Request entity too large.',
    details: [`${who} may send at most ${limit} bytes of form data (${variable}).`],
  });
}
