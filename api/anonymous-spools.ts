/**
 * Files from callers not yet known. ArcGIS clients put the token after the file, so on the upload
 * operations a file part may be spooled to disk before the caller turns out not to be signed in. What
 * such callers may hold at once is bounded here, per process: bytes across all of them, and concurrent
 * spooling requests per client address. A request that shows a valid token before its file (query string,
 * header or an earlier form field) is not counted; one whose token comes after is counted until it does.
 */
import { GeoError } from '../lib/errors.js';

export interface AnonymousSpoolLimits {
  /** Bytes all not-yet-authenticated requests may have spooled at once. */
  maxBytes: number;
  /** Not-yet-authenticated requests one client address may be spooling at once. */
  maxPerAddress: number;
}

/** One request's share: bytes reserved as they are written, all released together. */
export interface AnonymousSpool {
  reserve(bytes: number): void;
  release(): void;
}

export class AnonymousSpools {
  private bytes = 0;
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly limits: AnonymousSpoolLimits) {}

  /** Bytes held now by requests not yet authenticated (for tests and metrics). */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Admits a request from `address` to spool before it shows a token, or refuses it with a 429. */
  open(address: string): AnonymousSpool {
    const running = this.perAddress.get(address) ?? 0;
    if (running >= this.limits.maxPerAddress) throw tooManySpools(this.limits.maxPerAddress);
    this.perAddress.set(address, running + 1);
    let held = 0;
    let open = true;
    return {
      reserve: (bytes) => {
        if (this.bytes + bytes > this.limits.maxBytes) throw spoolFull(this.limits.maxBytes);
        this.bytes += bytes;
        held += bytes;
      },
      release: () => {
        if (!open) return;
        open = false;
        this.bytes -= held;
        held = 0;
        const left = (this.perAddress.get(address) ?? 1) - 1;
        if (left > 0) this.perAddress.set(address, left);
        else this.perAddress.delete(address);
      },
    };
  }
}

const SEND_TOKEN_FIRST =
  'Send the token before the file (in the query string, an Authorization or X-Esri-Authorization header, or a form field ahead of the file).';

const tooManySpools = (max: number) =>
  new GeoError({
    code: 429,
    message: 'Too many requests.',
    details: [
      `At most ${max} uploads without a token may run at once from one address (UPLOAD_ANONYMOUS_PER_CLIENT).`,
      SEND_TOKEN_FIRST,
    ],
  });

const spoolFull = (max: number) =>
  new GeoError({
    code: 403,
    message: 'Upload refused before the token was seen.',
    details: [
      `Uploads without a token may hold at most ${max} bytes at once on this server (UPLOAD_ANONYMOUS_MAX_BYTES).`,
      SEND_TOKEN_FIRST,
    ],
  });
