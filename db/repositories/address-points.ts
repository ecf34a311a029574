/** The administrators' street-level reference data of the embedded locator. */
import { asc, gt, sql } from 'drizzle-orm';
import type { AddressPointRecord } from '../../lib/geocode/gazetteer-types.js';
import type { Database } from '../client.js';
import { addressPoints } from '../schema/address-points.js';

export interface StoredAddressPoint extends AddressPointRecord {
  id: number;
}

/** Rows per INSERT statement: keeps each statement well under PostgreSQL's 65535 bound parameters. */
const INSERT_CHUNK = 2000;

export async function insertAddressPoints(
  db: Database,
  points: readonly AddressPointRecord[],
  source: string,
  created: number,
): Promise<void> {
  for (let i = 0; i < points.length; i += INSERT_CHUNK) {
    const rows = points.slice(i, i + INSERT_CHUNK).map((p) => ({
      lon: p.lon,
      lat: p.lat,
      number: p.number,
      street: p.street,
      unit: p.unit ?? null,
      city: p.city ?? null,
      district: p.district ?? null,
      region: p.region ?? null,
      postcode: p.postcode ?? null,
      countryCode: p.countryCode ?? null,
      source,
      created,
    }));
    await db.insert(addressPoints).values(rows);
  }
}

/** The points stored after `afterId`, in id order: how a running locator catches up. */
export async function addressPointsAfter(
  db: Database,
  afterId: number,
  limit: number,
): Promise<StoredAddressPoint[]> {
  const rows = await db
    .select()
    .from(addressPoints)
    .where(gt(addressPoints.id, afterId))
    .orderBy(asc(addressPoints.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    lon: r.lon,
    lat: r.lat,
    number: r.number,
    street: r.street,
    unit: r.unit ?? undefined,
    city: r.city ?? undefined,
    district: r.district ?? undefined,
    region: r.region ?? undefined,
    postcode: r.postcode ?? undefined,
    countryCode: r.countryCode ?? undefined,
  }));
}

export async function countAddressPoints(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(addressPoints);
  return Number(row?.n ?? 0);
}
