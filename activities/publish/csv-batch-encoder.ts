/**
 * One batch of whole delimited records to binary COPY data, as both CSV threads encode it: a batch
 * without a qualifier (most of a machine-written file) is encoded straight from its bytes, any other
 * is parsed first.
 */

import type { ErrorRecord } from '../../db/repositories/jobs.js';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import type { CopyBinaryWriter } from './copy-binary.js';
import { type CsvDialect, parseRecords } from './csv-source.js';
import { createRowEncoder } from './row-encoder.js';

export interface EncodedCsvBatch {
  data: Uint8Array;
  loaded: number;
  rejected: ErrorRecord[];
  /** Records read (blank lines are not records). */
  rows: number;
  /** The box around the loaded rows' boxes (null: none has one). */
  bounds: Bounds | null;
}

/** With `into`, the batch's rows are appended to that writer and `data` is empty (row-encoder.ts). */
export type CsvBatchEncoder = (
  bytes: Uint8Array,
  firstRowNumber: number,
  into?: CopyBinaryWriter,
) => EncodedCsvBatch;

export function createCsvBatchEncoder(
  plan: LayerPlan,
  targetSR: SpatialReference,
  geometrySR: SpatialReference,
): CsvBatchEncoder {
  const dialect = (plan.source as { dialect: CsvDialect }).dialect;
  const encoder = createRowEncoder(plan, targetSR, geometrySR);
  const qualifier = dialect.qualifier.length === 1 ? dialect.qualifier.charCodeAt(0) : -1;
  return (bytes, firstRowNumber, into) => {
    if (qualifier >= 0 && qualifier < 0x80 && !bytes.includes(qualifier)) {
      const encoded = encoder.encodeDelimited(bytes, dialect, firstRowNumber, into);
      const { data, loaded, rejected, records, bounds } = encoded;
      return { data, loaded, rejected, rows: records, bounds };
    }
    const rows = parseRecords(bytes, dialect);
    const { data, loaded, rejected, bounds } = encoder.encode(rows, firstRowNumber, undefined, into);
    return { data, loaded, rejected, rows: rows.length, bounds };
  };
}
