/**
 * Where the SQLite decoder's pages come from: a file on local disk read with positioned reads
 * through a small block cache (memory flat in the file's size), or bytes already in memory (a
 * GeoPackage converted from a file geodatabase). An object in the store is first copied to a
 * temporary file as a stream, so no whole database is ever held in memory.
 */
import { closeSync, createWriteStream, fstatSync, openSync, readSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseSqliteHeader, SqliteFile, SqliteFormatError } from '../../lib/ingest/sqlite-file.js';
import type { ObjectStore } from '../object-store.js';

/** Bytes read from disk at once; sequential table pages then cost one read per block. */
const BLOCK_BYTES = 1 << 20;
/** Blocks kept: a B-tree walk revisits interior pages, which stay cached. */
const CACHED_BLOCKS = 8;

export interface OpenedSqlite {
  file: SqliteFile;
  /** The file's size in bytes. */
  size: number;
  close(): void;
}

function checkLength(file: SqliteFile, size: number): void {
  const { pageSize, pageCount } = file.header;
  if (pageCount > 0 && pageSize * pageCount > size)
    throw new SqliteFormatError(
      `The database is truncated: its header says ${pageSize * pageCount} bytes, the file has ${size}.`,
    );
}

/** A database held in memory. */
export function sqliteFromBytes(bytes: Uint8Array): OpenedSqlite {
  const header = parseSqliteHeader(bytes);
  const { pageSize } = header;
  const file = new SqliteFile(header, (n) => bytes.subarray((n - 1) * pageSize, n * pageSize));
  checkLength(file, bytes.length);
  return { file, size: bytes.length, close: () => {} };
}

export interface SqlitePathOptions {
  /**
   * Reuse the buffers of blocks the cache lets go for later reads, and have the reader copy the pages it
   * holds (SqliteFile's `copyPages`): a read of the whole table then allocates no buffer per block. A
   * load thread reading a 168 MB file allocated 168 MB of blocks, which V8 counts against the thread's
   * heap limit: a full collection about every batch. Bytes the reader gives are then valid until it moves
   * to the next leaf page (the record path's contract).
   */
  recycleBlocks?: boolean;
  /** Bytes read at once (1 MB unless given: a scan's read-ahead; planning, which reads pages here and there, reads less). */
  blockBytes?: number;
}

/** A database file on disk, read page by page. */
export function openSqlitePath(path: string, options: SqlitePathOptions = {}): OpenedSqlite {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(100);
    readSync(fd, first, 0, 100, 0);
    const header = parseSqliteHeader(first.subarray(0, Math.min(100, size)));
    const { pageSize } = header;
    const block = Math.max(options.blockBytes ?? BLOCK_BYTES, pageSize);
    const blocks = new Map<number, Buffer>();
    /** Whole block buffers let go by the cache, for the next reads (with `recycleBlocks`). */
    const spare: Buffer[] = [];
    const readBlock = (index: number): Buffer => {
      const hit = blocks.get(index);
      if (hit) {
        // Most recently used last.
        blocks.delete(index);
        blocks.set(index, hit);
        return hit;
      }
      const position = index * block;
      const length = Math.max(0, Math.min(block, size - position));
      const reused = spare.pop();
      const buf = reused ? reused.subarray(0, length) : Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, position + done);
        if (n === 0) break;
        done += n;
      }
      const got = done === length ? buf : buf.subarray(0, done);
      blocks.set(index, got);
      if (blocks.size > CACHED_BLOCKS) {
        const oldest = blocks.keys().next().value as number;
        const gone = blocks.get(oldest) as Buffer;
        blocks.delete(oldest);
        // Only a whole block's buffer (the file's last block may be shorter).
        if (options.recycleBlocks && gone.buffer.byteLength >= block && spare.length === 0) {
          spare.push(Buffer.from(gone.buffer, gone.byteOffset, block));
        }
      }
      return got;
    };
    const file = new SqliteFile(
      header,
      (n) => {
        const offset = (n - 1) * pageSize;
        const index = Math.floor(offset / block);
        const within = offset - index * block;
        return readBlock(index).subarray(within, within + pageSize);
      },
      options.recycleBlocks === true,
    );
    checkLength(file, size);
    let open = true;
    return {
      file,
      size,
      close: () => {
        if (open) closeSync(fd);
        open = false;
        blocks.clear();
        spare.length = 0;
      },
    };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** Copies a stored object to a temporary file (streamed); `remove` deletes it. */
export async function spoolObject(
  store: ObjectStore,
  key: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'geoportal-sqlite-'));
  const path = join(dir, 'source.db');
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    // A 1 MB buffer lets the chunks that arrive during a write go out in one (`writev`): a 168 MB file
    // spooled in about half the time as with the default 16 KB.
    await pipeline(await store.getStream(key), createWriteStream(path, { highWaterMark: 1024 * 1024 }));
  } catch (e) {
    await remove();
    throw e;
  }
  return { path, remove };
}
