/**
 * PostgreSQL's binary COPY format, written straight into a growing buffer: numbers, instants and
 * boxes go over as their machine values, so the server parses no number text (a point row holds
 * seven of them) and this side formats none. The values stored are the ones the text format
 * gives: a double is the same double, an instant the same microsecond, text the same characters.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
/** The bytes before the first row: signature, flags, header extension length. */
export const COPY_HEADER_BYTES = SIGNATURE.length + 8;
/** 2000-01-01T00:00:00Z, PostgreSQL's timestamp epoch, in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 2 ** 32;

export class CopyBinaryWriter {
  private buf: Buffer;
  private view: DataView;
  pos = 0;

  constructor(initialBytes = 1 << 20) {
    // Never from the shared pool: the buffer may be transferred to another thread.
    this.buf = Buffer.allocUnsafeSlow(Math.max(64, initialBytes));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    for (const b of SIGNATURE) this.buf[this.pos++] = b;
    this.int32(0); // flags
    this.int32(0); // header extension length
  }

  /** Makes room for `bytes` more. */
  ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  private int32(v: number): void {
    this.view.setInt32(this.pos, v);
    this.pos += 4;
  }

  /** Starts a row of `fields` values; room for its fixed-size part is the caller's `ensure`. */
  row(fields: number): void {
    this.ensure(2 + fields * 12 + 32);
    this.view.setInt16(this.pos, fields);
    this.pos += 2;
  }

  null(): void {
    this.ensure(4);
    this.int32(-1);
  }

  int2(v: number): void {
    this.ensure(6);
    this.int32(2);
    this.view.setInt16(this.pos, v);
    this.pos += 2;
  }

  int4(v: number): void {
    this.ensure(8);
    this.int32(4);
    this.int32(v);
  }

  /** A safe integer as int8. */
  int8(v: number): void {
    this.ensure(12);
    this.int32(8);
    this.int64(v);
  }

  private int64(v: number): void {
    const hi = Math.floor(v / TWO_32);
    this.view.setInt32(this.pos, hi);
    this.view.setUint32(this.pos + 4, v - hi * TWO_32);
    this.pos += 8;
  }

  float4(v: number): void {
    this.ensure(8);
    this.int32(4);
    this.view.setFloat32(this.pos, v);
    this.pos += 4;
  }

  float8(v: number): void {
    this.ensure(12);
    this.int32(8);
    this.view.setFloat64(this.pos, v);
    this.pos += 8;
  }

  /** Epoch milliseconds (whole ones, as `Date` keeps them) as timestamptz. */
  timestamptz(ms: number): void {
    this.ensure(12);
    this.int32(8);
    const micros = (Math.trunc(ms) - PG_EPOCH_MS) * 1000;
    if (Number.isSafeInteger(micros)) this.int64(micros);
    else {
      this.view.setBigInt64(this.pos, (BigInt(Math.trunc(ms)) - BigInt(PG_EPOCH_MS)) * 1000n);
      this.pos += 8;
    }
  }

  /** A box as PostgreSQL sends it: the high corner, then the low one. */
  box(xmin: number, ymin: number, xmax: number, ymax: number): void {
    this.ensure(36);
    this.int32(32);
    const v = this.view;
    v.setFloat64(this.pos, xmax);
    v.setFloat64(this.pos + 8, ymax);
    v.setFloat64(this.pos + 16, xmin);
    v.setFloat64(this.pos + 24, ymin);
    this.pos += 32;
  }

  /** Text as UTF-8; short ASCII (most cells) is copied by hand, the rest by the encoder. */
  text(s: string): void {
    const n = s.length;
    this.ensure(4 + n * 3);
    const buf = this.buf;
    const start = this.pos + 4;
    let p = start;
    if (n <= 64) {
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          p = start + buf.write(s, start, 'utf8');
          break;
        }
        buf[p++] = c;
      }
    } else {
      p = start + buf.write(s, start, 'utf8');
    }
    this.view.setInt32(this.pos, p - start);
    this.pos = p;
  }

  /** Bytes known to be ASCII (so UTF-8 as they are), copied from `src[start, end)`. */
  ascii(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.ensure(4 + n);
    this.view.setInt32(this.pos, n);
    const buf = this.buf;
    let p = this.pos + 4;
    if (n <= 32) for (let i = start; i < end; i++) buf[p++] = src[i];
    else {
      buf.set(src.subarray(start, end), p);
      p += n;
    }
    this.pos = p;
  }

  /**
   * Copies `src[start, end)` as text where every byte is ASCII other than NUL, checking as it copies;
   * answers false and writes nothing (the position is unchanged) at the first other byte.
   */
  plainAscii(src: Uint8Array, start: number, end: number): boolean {
    const n = end - start;
    this.ensure(4 + n);
    const buf = this.buf;
    const head = this.pos;
    let p = head + 4;
    for (let i = start; i < end; i++) {
      const c = src[i];
      if (c === 0 || c >= 0x80) return false;
      buf[p++] = c;
    }
    this.view.setInt32(head, n);
    this.pos = p;
    return true;
  }

  /** The length of the field written at `at` (its bytes after the length word; -1 for null). */
  lengthAt(at: number): number {
    return this.view.getInt32(at);
  }

  /** Empties the writer for another COPY (the header stays), keeping its buffer. */
  restart(): void {
    this.pos = COPY_HEADER_BYTES;
  }

  /** The rows so far and the trailer, a view of the writer's buffer: valid until it is written again. */
  finish(): Uint8Array {
    this.ensure(2);
    this.view.setInt16(this.pos, -1);
    this.pos += 2;
    return this.buf.subarray(0, this.pos);
  }
}

/** The earliest instant a timestamptz holds (4714-11-24 BC), in epoch milliseconds. */
export const MIN_TIMESTAMP_MS = -210_866_803_200_000;
/** The latest instant a JavaScript Date holds (PostgreSQL goes further). */
export const MAX_TIMESTAMP_MS = 8.64e15;
