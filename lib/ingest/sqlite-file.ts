/**
 * A read-only decoder of the SQLite file format (https://www.sqlite.org/fileformat2.html): the
 * database header, table B-tree pages (interior and leaf), cells with their overflow chains, and
 * records (serial types, varints). Pages come from a `readPage` function, so the caller decides
 * whether the file is in memory or read page by page from disk; nothing here does I/O. Rows of a
 * table are visited in rowid order and a scan can start after a rowid (interior keys are used to
 * skip whole subtrees), which is how a load resumes after the last key it stored.
 */

export type SqliteValue = number | string | Uint8Array | null;

export class SqliteFormatError extends Error {}

export interface SqliteHeader {
  pageSize: number;
  /** Page size less the reserved bytes at the end of each page. */
  usable: number;
  /** Pages the header says the database has (0 when the header's count is not trustworthy). */
  pageCount: number;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
}

export const SQLITE_MAGIC = 'SQLite format 3\0';

/** The database header (the first 100 bytes of the file). */
/** Buffer's Latin-1 reader, which takes any Uint8Array (the pages may be plain views). */
const latin1Slice = (
  Buffer.prototype as unknown as { latin1Slice(this: Uint8Array, start: number, end: number): string }
).latin1Slice;

export function parseSqliteHeader(bytes: Uint8Array): SqliteHeader {
  if (bytes.length < 100)
    throw new SqliteFormatError('The file is not a SQLite database (no SQLite header).');
  for (let i = 0; i < 16; i++)
    if (bytes[i] !== SQLITE_MAGIC.charCodeAt(i))
      throw new SqliteFormatError('The file is not a SQLite database or GeoPackage (no SQLite header).');
  const view = new DataView(bytes.buffer, bytes.byteOffset, 100);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    throw new SqliteFormatError(`The SQLite page size ${raw} is invalid.`);
  const reserved = bytes[20];
  const usable = pageSize - reserved;
  if (usable < 480) throw new SqliteFormatError('The SQLite reserved space leaves too little of each page.');
  // The in-header page count is valid only when its version number matches the change counter.
  const pageCount = view.getUint32(92) === view.getUint32(24) ? view.getUint32(28) : 0;
  const enc = view.getUint32(56);
  const encoding = enc === 2 ? 'utf-16le' : enc === 3 ? 'utf-16be' : 'utf-8';
  if (enc > 3) throw new SqliteFormatError(`The SQLite text encoding ${enc} is invalid.`);
  return { pageSize, usable, pageCount, encoding };
}

export interface LongestValues {
  count: number;
  /** Per position asked for: the longest value (bytes of text and blobs, characters of numbers). */
  longest: number[];
  /** The fewest values any record holds (columns added later are missing from older records). */
  fewest: number;
}

export interface SqliteRow {
  rowid: number;
  values: SqliteValue[];
}

/**
 * A row of `rowsWhere`: one object for the whole read, overwritten at each step, its first `count`
 * values the record's (the array is reused and may hold more from an earlier row).
 */
export interface ScratchRow {
  rowid: number;
  values: SqliteValue[];
  count: number;
}

/**
 * A record of `recordsWhere` laid out where it lies, nothing decoded: value k (k < `count`) has the
 * serial type `types[k]` and starts at `starts[k]` of `bytes` (the page, or the whole payload of a
 * record with overflow pages). One object for the whole read, overwritten at each step.
 */
export interface RecordCells {
  rowid: number;
  count: number;
  bytes: Uint8Array;
  types: Float64Array;
  starts: Int32Array;
}

export interface SchemaEntry {
  type: string;
  name: string;
  tableName: string;
  rootPage: number;
  sql: string | null;
}

/** Page numbers seen: a bit per page when the header tells the count (pages are checked against it), else a Set. */
function pageSet(pageCount: number): { has(n: number): boolean; add(n: number): void } {
  if (pageCount <= 0) return new Set<number>();
  const bits = new Uint8Array((pageCount >>> 3) + 1);
  return {
    has: (n) => n <= pageCount && (bits[n >>> 3] & (1 << (n & 7))) !== 0,
    add: (n) => {
      if (n <= pageCount) bits[n >>> 3] |= 1 << (n & 7);
    },
  };
}

const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
const MAX_DEPTH = 64;
const MAX_PAYLOAD = 2 ** 31 - 1;

/** A database read through `readPage(n)` (1-based page numbers, `pageSize` bytes each). */
export class SqliteFile {
  private readonly text: InstanceType<typeof TextDecoder>;
  /** The buffer `view` reads (record's values are read through one view a buffer). */
  private viewOf: ArrayBufferLike | null = null;
  private view: DataView | null = null;
  /** Largest payload kept whole on a table leaf page, and the minimum local part of a larger one. */
  private readonly maxLocal: number;
  private readonly minLocal: number;

  /** With copied pages: the leaf page being read, and the interior pages of its path by depth. */
  private leafCopy: Uint8Array | null = null;
  private readonly interiorCopies: Uint8Array[] = [];

  /**
   * `copyPages`: the B-tree pages a read holds while it goes on (the leaf whose cells it reads, the
   * interior pages above it) are copied into buffers of this reader, so that no page `readPage` gave is
   * used after the next call to it, and `readPage` may reuse its buffers. Bytes a read gives (a record's
   * bytes, a blob value) are then valid until it moves to the next leaf page.
   */
  constructor(
    readonly header: SqliteHeader,
    private readonly readPage: (n: number) => Uint8Array,
    private readonly copyPages = false,
  ) {
    this.text = new TextDecoder(header.encoding, { fatal: false });
    this.maxLocal = header.usable - 35;
    this.minLocal = Math.floor(((header.usable - 12) * 32) / 255) - 23;
  }

  /** The rows of sqlite_master (page 1): tables, indexes, views and triggers. */
  schema(): SchemaEntry[] {
    const out: SchemaEntry[] = [];
    for (const { values } of this.rows(1)) {
      out.push({
        type: String(values[0]),
        name: String(values[1]),
        tableName: String(values[2]),
        rootPage: Number(values[3] ?? 0),
        sql: values[4] === null || values[4] === undefined ? null : String(values[4]),
      });
    }
    return out;
  }

  /** Rows of the table B-tree rooted at `root`, in rowid order, each with a rowid above `after`. */
  *rows(root: number, after = Number.NEGATIVE_INFINITY): Generator<SqliteRow> {
    for (const page of this.leaves(root, after)) {
      const start = page.headerOffset;
      const cells = (page.bytes[start + 3] << 8) | page.bytes[start + 4];
      for (let i = 0; i < cells; i++) {
        const row = this.leafCell(page.bytes, page.number, start + 8 + i * 2);
        if (row.rowid > after) yield row;
      }
    }
  }

  /**
   * Like `rows`, but only the rows whose index (0 for the first row after `after`) `wanted` accepts are
   * decoded; each run of the others is passed over as its length, its records not read. Threads that
   * share a table read it this way, each decoding its own part. Each row is the same ScratchRow, valid
   * until the next step: a million-row load made an array and an object per row here.
   */
  rowsWhere(
    root: number,
    after: number,
    wanted: (index: number) => boolean,
    /** Only the values at record positions up to this one are read (a reader of one early column). */
    upTo = Number.POSITIVE_INFINITY,
  ): Generator<ScratchRow | number> {
    const scratch: ScratchRow = { rowid: 0, values: [], count: 0 };
    return this.wantedCells(root, after, wanted, (bytes, number, pointerAt) =>
      this.leafCellInto(bytes, number, pointerAt, scratch, upTo),
    );
  }

  /**
   * Like `rowsWhere`, but each wanted record is laid out in place (RecordCells) instead of decoded: a
   * reader that writes most cells straight from the page bytes (a load's encoder) makes no value of
   * them, and asks `value` for the others.
   */
  recordsWhere(
    root: number,
    after: number,
    wanted: (index: number) => boolean,
  ): Generator<RecordCells | number> {
    const scratch: RecordCells = {
      rowid: 0,
      count: 0,
      bytes: new Uint8Array(0),
      types: new Float64Array(16),
      starts: new Int32Array(16),
    };
    return this.wantedCells(root, after, wanted, (bytes, number, pointerAt) =>
      this.leafRecordInto(bytes, number, pointerAt, scratch),
    );
  }

  /**
   * The walk of `rowsWhere` and `recordsWhere`: each wanted leaf cell (by its index from the first key
   * above `after`) read by `read`, each run of the others given as its length.
   */
  private *wantedCells<T>(
    root: number,
    after: number,
    wanted: (index: number) => boolean,
    read: (bytes: Uint8Array, pageNumber: number, pointerAt: number) => T,
  ): Generator<T | number> {
    let index = 0;
    let past = after === Number.NEGATIVE_INFINITY;
    for (const page of this.leaves(root, after)) {
      const { bytes, number, headerOffset } = page;
      const cells = (bytes[headerOffset + 3] << 8) | bytes[headerOffset + 4];
      let i = 0;
      if (!past) {
        // The first leaf may hold keys at or below `after`: those rows are no rows of this read.
        while (i < cells && this.cellRowid(bytes, number, headerOffset + 8 + i * 2) <= after) i++;
        past = i < cells;
      }
      while (i < cells) {
        if (wanted(index)) {
          yield read(bytes, number, headerOffset + 8 + i * 2);
          i++;
          index++;
          continue;
        }
        let skipped = 0;
        while (i < cells && !wanted(index)) {
          i++;
          index++;
          skipped++;
        }
        yield skipped;
      }
    }
  }

  /** Value k of a record laid out by `recordsWhere` (k < its count), as `rowsWhere` decodes it. */
  value(record: RecordCells, k: number): SqliteValue {
    const t = record.types[k];
    if (t === 0) return null;
    if (t === 8 || t === 9) return t - 8;
    const { bytes } = record;
    const at = record.starts[k];
    if (t <= 7) {
      if (bytes.buffer !== this.viewOf) {
        this.viewOf = bytes.buffer;
        this.view = new DataView(bytes.buffer);
      }
      const view = this.view as DataView;
      return t === 7
        ? view.getFloat64(bytes.byteOffset + at)
        : readInt(bytes, view, bytes.byteOffset, at, INT_BYTES[t]);
    }
    const length = (t - 12 - (t & 1)) / 2;
    if (t & 1) return this.decodeText(bytes, at, length);
    return new Uint8Array(bytes.buffer, bytes.byteOffset + at, length);
  }

  /** The number of rows of a table (counting leaf cells, no record decoded). */
  count(root: number): number {
    let n = 0;
    for (const page of this.leaves(root, Number.NEGATIVE_INFINITY))
      n += (page.bytes[page.headerOffset + 3] << 8) | page.bytes[page.headerOffset + 4];
    return n;
  }

  /**
   * About how many rows a table holds, read from its interior pages and a few of its leaves: the number
   * of leaf pages (the children of its lowest interior level) times the mean cell count of up to
   * `samples` leaves spread evenly over them. Exact when the table is one leaf page or every leaf is
   * sampled. `count` reads every leaf page (all of a large table's file); this reads a fraction of a
   * percent of them (a million-row table of 32,330 pages: its 82 interior pages and 32 leaves).
   */
  estimatedCount(root: number, samples = 32): number {
    const visited = pageSet(this.header.pageCount);
    const visit = (n: number) => {
      if (visited.has(n))
        throw new SqliteFormatError(`The table's B-tree reaches page ${n} twice (a damaged tree).`);
      visited.add(n);
      const headerOffset = n === 1 ? 100 : 0;
      const bytes = this.page(n);
      const type = bytes[headerOffset];
      if (type !== LEAF_TABLE && type !== INTERIOR_TABLE) {
        throw new SqliteFormatError(
          type === 0x0a || type === 0x02
            ? 'The table is stored WITHOUT ROWID, which this reader does not read.'
            : `Page ${n} is not a table B-tree page (type ${type}).`,
        );
      }
      return { bytes, headerOffset, type, cells: (bytes[headerOffset + 3] << 8) | bytes[headerOffset + 4] };
    };
    let level = [root];
    for (let depth = 0; ; depth++) {
      if (depth > MAX_DEPTH) throw new SqliteFormatError('The database B-tree is too deep (a loop?).');
      const children: number[] = [];
      for (const n of level) {
        const page = visit(n);
        if (page.type === LEAF_TABLE) {
          // Only the root can be a leaf here: the level above decided its children were interior. SQLite
          // keeps its B-trees balanced; one that is not is counted leaf by leaf, as the load reads it.
          if (depth > 0) return this.count(root);
          return page.cells;
        }
        for (let i = 0; i < page.cells; i++)
          children.push(u32(page.bytes, cellPointer(page.bytes, page.headerOffset + 12 + i * 2)));
        children.push(u32(page.bytes, page.headerOffset + 8));
      }
      // A B-tree is balanced: the children of one level are all leaves or all interior pages.
      const first = children[0] as number;
      const firstPage = this.page(first);
      if (firstPage[first === 1 ? 100 : 0] !== LEAF_TABLE) {
        level = children;
        continue;
      }
      const taken = Math.min(samples, children.length);
      let cells = 0;
      for (let k = 0; k < taken; k++) {
        const page = visit(children[Math.floor(((k + 0.5) * children.length) / taken)] as number);
        if (page.type !== LEAF_TABLE) return this.count(root);
        cells += page.cells;
      }
      return Math.round((cells / taken) * children.length);
    }
  }

  /**
   * The number of rows and, for each record position in `positions`, the longest value: the byte
   * length of text and blobs (read from the record header, the text not decoded; never less than
   * the text's length in characters), the length of a number's text.
   */
  longestValues(root: number, positions: number[]): LongestValues {
    const steps = this.longestValuesSteps(root, positions);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /** `longestValues` in steps of `pages` leaf pages, so that a caller can let other work run between them. */
  *longestValuesSteps(root: number, positions: number[], pages = 256): Generator<void, LongestValues> {
    const longest = positions.map(() => 0);
    let count = 0;
    let fewest = Number.POSITIVE_INFINITY;
    let seen = 0;
    for (const page of this.leaves(root, Number.NEGATIVE_INFINITY)) {
      if (++seen % pages === 0) yield;
      const { bytes, headerOffset } = page;
      const cells = (bytes[headerOffset + 3] << 8) | bytes[headerOffset + 4];
      for (let c = 0; c < cells; c++) {
        count++;
        let at = cellPointer(bytes, headerOffset + 8 + c * 2);
        const size = readVarint(bytes, at);
        at = skipVarint(bytes, size.next); // the rowid
        // The record is read where it lies on the page (no view made of it) unless it overflows.
        let record = bytes;
        let base = at;
        // A local record cut by the page's end is read as far as the page goes (and found too short).
        let length = Math.max(0, Math.min(size.value, bytes.length - at));
        if (size.value > this.maxLocal) {
          record = this.overflowPayload(bytes, at, size.value);
          base = 0;
          length = size.value;
        }
        const recordEnd = base + length;
        const headerSize = readVarint(record, base);
        if (headerSize.next > recordEnd) throw new SqliteFormatError(VARINT_PAST_END);
        const headerEnd = base + headerSize.value;
        let h = headerSize.next;
        let body = headerSize.value;
        let column = 0;
        for (; h < headerEnd; column++) {
          if (h >= recordEnd) throw new SqliteFormatError(VARINT_PAST_END);
          // Serial types under 128 take one byte.
          let t = record[h];
          if (t < 0x80) h++;
          else {
            const st = readVarint(record, h);
            if (st.next > recordEnd) throw new SqliteFormatError(VARINT_PAST_END);
            h = st.next;
            t = st.value;
          }
          const valueLength = t <= 6 ? INT_BYTES[t] : t === 7 ? 8 : t >= 12 ? (t - 12 - (t & 1)) / 2 : 0;
          const wanted = positions.length === 0 ? -1 : positions.indexOf(column);
          if (wanted >= 0) {
            let n = 0;
            if (t >= 12) n = valueLength;
            else if (t >= 1 && t <= 9)
              n = String(this.record(record.subarray(base, recordEnd))[column]).length;
            if (n > longest[wanted]) longest[wanted] = n;
          }
          body += valueLength;
        }
        if (column < fewest) fewest = column;
        if (body > length) throw new SqliteFormatError('A record value runs past its record.');
      }
    }
    return { count, longest, fewest: count === 0 ? 0 : fewest };
  }

  private page(n: number): Uint8Array {
    if (!Number.isInteger(n) || n < 1 || (this.header.pageCount > 0 && n > this.header.pageCount))
      throw new SqliteFormatError(`The database refers to page ${n}, outside the file.`);
    const bytes = this.readPage(n);
    if (bytes.length < this.header.pageSize)
      throw new SqliteFormatError(`The database is truncated: page ${n} is incomplete.`);
    return bytes;
  }

  /** Leaf pages of a table B-tree in key order, skipping subtrees whose keys are all ≤ `after`. */
  private *leaves(
    root: number,
    after: number,
  ): Generator<{ bytes: Uint8Array; number: number; headerOffset: number }> {
    const stack: { bytes: Uint8Array; headerOffset: number; next: number; cells: number }[] = [];
    // A B-tree reaches each of its pages once. A damaged one whose children point at a page twice would
    // repeat its rows, and children pointing twice at a subtree at each level would double the pages
    // visited per level (2^64 under MAX_DEPTH): any page reached again refuses the table.
    const visited = pageSet(this.header.pageCount);
    let current = root;
    for (;;) {
      if (stack.length > MAX_DEPTH) throw new SqliteFormatError('The database B-tree is too deep (a loop?).');
      if (visited.has(current)) {
        throw new SqliteFormatError(`The table's B-tree reaches page ${current} twice (a damaged tree).`);
      }
      visited.add(current);
      const headerOffset = current === 1 ? 100 : 0;
      const read = this.page(current);
      const type = read[headerOffset];
      const bytes = this.copyPages ? this.held(read, type === LEAF_TABLE ? -1 : stack.length) : read;
      const cells = (bytes[headerOffset + 3] << 8) | bytes[headerOffset + 4];
      if (type === LEAF_TABLE) {
        yield { bytes, number: current, headerOffset };
      } else if (type === INTERIOR_TABLE) {
        // Children hold keys ≤ their cell's key; the first child that may hold a key above `after`.
        let first = 0;
        while (first < cells && this.interiorKey(bytes, headerOffset, first) <= after) first++;
        stack.push({ bytes, headerOffset, next: first, cells });
      } else {
        throw new SqliteFormatError(
          type === 0x0a || type === 0x02
            ? 'The table is stored WITHOUT ROWID, which this reader does not read.'
            : `Page ${current} is not a table B-tree page (type ${type}).`,
        );
      }
      // The next child to visit: the next cell's left child, or the right-most pointer.
      let child = 0;
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        if (top.next < top.cells) {
          const ptr = cellPointer(top.bytes, top.headerOffset + 12 + top.next * 2);
          child = u32(top.bytes, ptr);
          top.next++;
          break;
        }
        if (top.next === top.cells) {
          child = u32(top.bytes, top.headerOffset + 8);
          top.next++;
          break;
        }
        stack.pop();
      }
      if (child === 0) return;
      current = child;
    }
  }

  /** The page copied into the buffer of the leaf (depth -1) or of the interior page at `depth`. */
  private held(page: Uint8Array, depth: number): Uint8Array {
    let copy = depth < 0 ? this.leafCopy : this.interiorCopies[depth];
    if (!copy) {
      copy = new Uint8Array(page.length);
      if (depth < 0) this.leafCopy = copy;
      else this.interiorCopies[depth] = copy;
    }
    copy.set(page);
    return copy;
  }

  private interiorKey(bytes: Uint8Array, headerOffset: number, i: number): number {
    const ptr = cellPointer(bytes, headerOffset + 12 + i * 2);
    return readVarint(bytes, ptr + 4).value;
  }

  /** A leaf cell's rowid, its record not read. */
  private cellRowid(bytes: Uint8Array, pageNumber: number, pointerAt: number): number {
    const at = cellPointer(bytes, pointerAt);
    if (at >= bytes.length) throw new SqliteFormatError(`A cell of page ${pageNumber} lies outside it.`);
    return readVarint(bytes, readVarint(bytes, at).next).value;
  }

  private leafCell(bytes: Uint8Array, pageNumber: number, pointerAt: number): SqliteRow {
    const row = this.leafCellInto(bytes, pageNumber, pointerAt, { rowid: 0, values: [], count: 0 });
    return { rowid: row.rowid, values: row.values };
  }

  /** The payload size and rowid of the last cell head read (`cellHead`). */
  private headTotal = 0;
  private headRowid = 0;

  /** Reads a leaf cell's payload size and rowid into headTotal and headRowid; answers where its payload starts. */
  private cellHead(bytes: Uint8Array, pageNumber: number, pointerAt: number): number {
    let at = cellPointer(bytes, pointerAt);
    if (at >= bytes.length) throw new SqliteFormatError(`A cell of page ${pageNumber} lies outside it.`);
    // Most cells' sizes take two bytes and most rowids three or fewer: read without a varint object.
    const b0 = bytes[at];
    if (b0 < 0x80) {
      this.headTotal = b0;
      at++;
    } else if (bytes[at + 1] < 0x80) {
      this.headTotal = (b0 & 0x7f) * 128 + bytes[at + 1];
      at += 2;
    } else {
      const size = readVarint(bytes, at);
      this.headTotal = size.value;
      at = size.next;
    }
    const rowid = readVarint(bytes, at);
    this.headRowid = rowid.value;
    const payloadAt = rowid.next;
    if (this.headTotal <= this.maxLocal && payloadAt + this.headTotal > this.header.usable)
      throw new SqliteFormatError(`A record of page ${pageNumber} runs past the page end.`);
    return payloadAt;
  }

  private leafCellInto(
    bytes: Uint8Array,
    pageNumber: number,
    pointerAt: number,
    into: ScratchRow,
    upTo = Number.POSITIVE_INFINITY,
  ): ScratchRow {
    const at = this.cellHead(bytes, pageNumber, pointerAt);
    const total = this.headTotal;
    into.rowid = this.headRowid;
    const payload =
      total <= this.maxLocal ? bytes.subarray(at, at + total) : this.overflowPayload(bytes, at, total);
    into.count = this.recordInto(payload, into.values, upTo);
    return into;
  }

  private leafRecordInto(
    bytes: Uint8Array,
    pageNumber: number,
    pointerAt: number,
    into: RecordCells,
  ): RecordCells {
    const at = this.cellHead(bytes, pageNumber, pointerAt);
    const total = this.headTotal;
    into.rowid = this.headRowid;
    if (total <= this.maxLocal) this.recordCellsInto(bytes, at, total, into);
    else this.recordCellsInto(this.overflowPayload(bytes, at, total), 0, total, into);
    return into;
  }

  /** The record of `length` bytes at `base` of `bytes`, laid out into `into` (as recordInto reads it). */
  private recordCellsInto(bytes: Uint8Array, base: number, length: number, into: RecordCells): void {
    const headerSize = readVarint(bytes, base);
    if (headerSize.value > length) throw new SqliteFormatError('A record header runs past its record.');
    const recordEnd = base + length;
    const end = base + headerSize.value;
    let h = headerSize.next;
    let at = end;
    let n = 0;
    let { types, starts } = into;
    while (h < end) {
      let t = bytes[h];
      if (t < 0x80) h++;
      else {
        const st = readVarint(bytes, h);
        h = st.next;
        t = st.value;
      }
      let size: number;
      if (t === 0 || t === 8 || t === 9) size = 0;
      else if (t <= 6) size = INT_BYTES[t];
      else if (t === 7) size = 8;
      else if (t >= 12) size = (t - 12 - (t & 1)) / 2;
      else throw new SqliteFormatError(`A record uses the reserved serial type ${t}.`);
      if (at + size > recordEnd) throw new SqliteFormatError('A record value runs past its record.');
      if (n === types.length) {
        const moreTypes = new Float64Array(n * 2);
        moreTypes.set(types);
        const moreStarts = new Int32Array(n * 2);
        moreStarts.set(starts);
        into.types = types = moreTypes;
        into.starts = starts = moreStarts;
      }
      types[n] = t;
      starts[n] = at;
      n++;
      at += size;
    }
    into.bytes = bytes;
    into.count = n;
  }

  /** A payload too large for its page: the local part, then the chain of overflow pages. */
  private overflowPayload(bytes: Uint8Array, at: number, total: number): Uint8Array {
    const { usable } = this.header;
    // SQLite's own limit on a value is 1e9 bytes (SQLITE_MAX_LENGTH); a larger size is a damaged cell.
    if (total > MAX_PAYLOAD)
      throw new SqliteFormatError(`A record claims ${total} bytes, more than SQLite allows.`);
    // Nor more than the pages of the file could hold: checked before the record's buffer is made.
    if (this.header.pageCount > 0 && total > this.header.pageCount * usable)
      throw new SqliteFormatError(`A record claims ${total} bytes, more than the file holds.`);
    const k = this.minLocal + ((total - this.minLocal) % (usable - 4));
    const local = k <= this.maxLocal ? k : this.minLocal;
    if (at + local + 4 > usable) throw new SqliteFormatError('A record runs past its page end.');
    const out = new Uint8Array(total);
    out.set(bytes.subarray(at, at + local), 0);
    let filled = local;
    let next = u32(bytes, at + local);
    let hops = 0;
    while (filled < total) {
      if (next === 0 || ++hops > total)
        throw new SqliteFormatError('An overflow chain ends before its record.');
      const page = this.page(next);
      const take = Math.min(usable - 4, total - filled);
      out.set(page.subarray(4, 4 + take), filled);
      filled += take;
      next = u32(page, 0);
    }
    return out;
  }

  /** A record's values: a header of serial types, then the values in column order. */
  record(payload: Uint8Array): SqliteValue[] {
    const values: SqliteValue[] = [];
    this.recordInto(payload, values);
    return values;
  }

  /**
   * The record's values into `values` from its start (its later entries left as they are); their number.
   * With `upTo`, the values past that position are not read (the number is then at most `upTo + 1`).
   */
  private recordInto(payload: Uint8Array, values: SqliteValue[], upTo = Number.POSITIVE_INFINITY): number {
    let n = 0;
    const headerSize = readVarint(payload, 0);
    const end = headerSize.value;
    if (end > payload.length) throw new SqliteFormatError('A record header runs past its record.');
    let h = headerSize.next;
    let at = end;
    // One view a buffer (pages of a block share theirs), read at the payload's offset within it.
    if (payload.buffer !== this.viewOf) {
      this.viewOf = payload.buffer;
      this.view = new DataView(payload.buffer);
    }
    const view = this.view as DataView;
    const base = payload.byteOffset;
    while (h < end && n <= upTo) {
      // Serial types under 128 (nulls, numbers, texts and blobs of up to 57 bytes) take one byte.
      let t = payload[h];
      if (t < 0x80) h++;
      else {
        const st = readVarint(payload, h);
        h = st.next;
        t = st.value;
      }
      let length: number;
      if (t === 0) {
        values[n++] = null;
        continue;
      }
      if (t === 8 || t === 9) {
        values[n++] = t - 8;
        continue;
      }
      if (t <= 6) length = INT_BYTES[t];
      else if (t === 7) length = 8;
      else if (t >= 12) length = (t - 12 - (t & 1)) / 2;
      else throw new SqliteFormatError(`A record uses the reserved serial type ${t}.`);
      if (at + length > payload.length) throw new SqliteFormatError('A record value runs past its record.');
      if (t <= 6) values[n++] = readInt(payload, view, base, at, length);
      else if (t === 7) values[n++] = view.getFloat64(base + at);
      else if (t & 1) values[n++] = this.decodeText(payload, at, length);
      else values[n++] = new Uint8Array(payload.buffer, payload.byteOffset + at, length);
      at += length;
    }
    return n;
  }

  private decodeText(bytes: Uint8Array, at: number, length: number): string {
    if (this.header.encoding === 'utf-8' && length <= 64) {
      // Short ASCII strings (most attribute values) without the decoder's call overhead: ASCII is
      // Latin-1, which Node copies into a flat string in one native call (a string built character by
      // character took twice as long and left a string object per character to collect).
      const end = at + length;
      for (let i = at; i < end; i++) if (bytes[i] >= 0x80) return this.text.decode(bytes.subarray(at, end));
      return latin1Slice.call(bytes, at, end);
    }
    return this.text.decode(bytes.subarray(at, at + length));
  }
}

const INT_BYTES = [0, 1, 2, 3, 4, 6, 8];

const F64 = new Float64Array(1);
const F64_BYTES = new Uint8Array(F64.buffer);
const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The number of a value of serial type 1–5, 7, 8 or 9 at `at` of `bytes` (as `value` reads it), read
 * without a view: a load's encoder reads every numeric cell this way. Type 6 (8-byte integers, which
 * `value` rounds through BigInt) is not read here.
 */
export function recordNumber(bytes: Uint8Array, at: number, t: number): number {
  switch (t) {
    case 1:
      return (bytes[at] << 24) >> 24;
    case 2:
      return ((bytes[at] << 24) >> 16) | bytes[at + 1];
    case 3:
      return ((bytes[at] << 24) >> 8) | (bytes[at + 1] << 8) | bytes[at + 2];
    case 4:
      return (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
    case 5:
      return (
        (((bytes[at] << 24) >> 16) | bytes[at + 1]) * 0x100000000 +
        (bytes[at + 2] * 0x1000000 + ((bytes[at + 3] << 16) | (bytes[at + 4] << 8) | bytes[at + 5]))
      );
    case 7:
      if (HOST_LITTLE) for (let i = 0; i < 8; i++) F64_BYTES[i] = bytes[at + 7 - i];
      else for (let i = 0; i < 8; i++) F64_BYTES[i] = bytes[at + i];
      return F64[0];
    case 8:
      return 0;
    case 9:
      return 1;
    default:
      throw new Error(`Serial type ${t} is not read by recordNumber.`);
  }
}

/** A big-endian integer of `length` bytes at `at` of `bytes`, which starts at `base` of `view`'s buffer. */
function readInt(bytes: Uint8Array, view: DataView, base: number, at: number, length: number): number {
  switch (length) {
    case 1:
      return view.getInt8(base + at);
    case 2:
      return view.getInt16(base + at);
    case 3:
      return ((bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2]) - (bytes[at] & 0x80 ? 0x1000000 : 0);
    case 4:
      return view.getInt32(base + at);
    case 6:
      return view.getInt16(base + at) * 0x100000000 + view.getUint32(base + at + 2);
    default:
      return Number(view.getBigInt64(base + at));
  }
}

const cellPointer = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const u32 = (bytes: Uint8Array, at: number) =>
  bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);

const VARINT_PAST_END = 'A varint runs past the end of its page.';

/** Where the varint at `at` ends (its value not read). */
function skipVarint(bytes: Uint8Array, at: number): number {
  for (let i = 0; i < 8; i++) {
    const b = bytes[at + i];
    if (b === undefined) throw new SqliteFormatError('A varint runs past the end of its page.');
    if (b < 0x80) return at + i + 1;
  }
  if (bytes[at + 8] === undefined) throw new SqliteFormatError('A varint runs past the end of its page.');
  return at + 9;
}

/** A SQLite varint: 1–9 bytes, big-endian, 7 bits a byte (8 in the ninth); 64-bit two's complement. */
export function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const b = bytes[at + i];
    if (b === undefined) throw new SqliteFormatError('A varint runs past the end of its page.');
    value = value * 128 + (b & 0x7f);
    if (b < 0x80) return { value, next: at + i + 1 };
  }
  const last = bytes[at + 8];
  if (last === undefined) throw new SqliteFormatError('A varint runs past the end of its page.');
  // Nine bytes: 64 bits, possibly negative.
  let big = 0n;
  for (let i = 0; i < 8; i++) big = (big << 7n) | BigInt(bytes[at + i] & 0x7f);
  big = (big << 8n) | BigInt(last);
  return { value: Number(BigInt.asIntN(64, big)), next: at + 9 };
}
