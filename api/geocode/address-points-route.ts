/**
 * `POST {name}/GeocodeServer/loadAddressPoints`: an administrator adds street-level reference data (an
 * OpenAddresses-style CSV, uploaded as `file` or named by the `itemId` of a CSV item). The rows are streamed,
 * stored in batches (db address_points) and the running locator catches up before the answer, so the very
 * next request matches them.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Context } from 'hono';
import { insertAddressPoints } from '../../db/repositories/address-points.js';
import { readAddressPointsCsv } from '../../infra/gazetteer/address-points-csv.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { requireAdmin } from '../portal/access.js';
import { readableItem } from '../portal/item-access.js';

/** Points per stored batch: one transaction-sized unit, small enough to keep the request's memory flat. */
const BATCH = 5000;

interface CsvSource {
  name: string;
  stream: Readable;
}

async function csvSource(c: Context<AppEnv>): Promise<CsvSource> {
  const params = c.get('params');
  const file = params.file('file') ?? params.files()[0];
  if (file) return { name: file.filename || 'upload.csv', stream: createReadStream(file.path) };
  const itemId = params.get('itemId');
  if (!itemId)
    throw badRequest('Invalid or missing input parameters.', ["Send a CSV as 'file' or an 'itemId'."]);
  const item = await readableItem(c, itemId);
  if (item.type !== 'CSV' || !item.dataKey)
    throw badRequest('Invalid or missing input parameters.', [`Item '${itemId}' is not a CSV file item.`]);
  return { name: item.id, stream: await c.get('deps').store.getStream(item.dataKey) };
}

export async function loadAddressPoints(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  requireAdmin(c);
  const deps = c.get('deps');
  const locator = await deps.locator();
  const name = c.req.param('name') ?? '';
  if (locator.info.serviceName.toLowerCase() !== name.toLowerCase())
    throw notFound('Service not found.', [`No geocode service named '${name}'.`]);
  const countryCode = c.get('params').get('countryCode')?.trim().toUpperCase() || undefined;
  if (countryCode && !/^[A-Z]{2}$/.test(countryCode))
    throw badRequest("Invalid value for 'countryCode'.", ['Give the ISO 3166 alpha-2 code of the file.']);

  const source = await csvSource(c);
  let loaded = 0;
  try {
    for await (const batch of readAddressPointsCsv(source.stream, { countryCode, batchSize: BATCH })) {
      await insertAddressPoints(deps.database.db, batch, source.name, deps.now());
      loaded += batch.length;
    }
  } finally {
    source.stream.destroy();
  }
  const refreshed = await deps.locator({ refresh: true });
  deps.log.info('address points loaded', { source: source.name, loaded });
  return { success: true, source: source.name, loaded, addressPoints: refreshed.index.points.size };
}
