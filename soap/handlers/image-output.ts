/**
 * Where results asked for "as URL" go (ExportMapImage with geoImageReturnURL, legend swatches, JSON
 * query results): a short-lived object in MinIO, served back by the SOAP router under the
 * service's `…/MapServer/output/{file}`. File names carry their creation time, so expiry needs
 * no index: an expired name is refused when read and removed by the next sweep.
 */
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../../infra/object-store.js';

export const OUTPUT_PREFIX = 'soap-output/';
const OUTPUT_FILE = /^_geo_(\d{1,15})_([0-9a-f]{32})\.(png|jpg|json)$/;

export const OUTPUT_CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  json: 'application/json',
};

export interface ImageOutput {
  /** Stores the bytes and answers the URL they are served at below `endpointUrl`. */
  publish(bytes: Uint8Array, extension: 'png' | 'jpg' | 'json', endpointUrl: string): Promise<string>;
  /** The bytes of a published file that has not expired, or undefined. */
  read(file: string): Promise<{ bytes: Buffer; contentType: string } | undefined>;
}

export interface ImageOutputOptions {
  store: ObjectStore;
  now: () => number;
  /** How long a published file stays readable (default 10 minutes, as ArcGIS cleans its output folder). */
  ttlMs?: number;
}

export function createImageOutput({ store, now, ttlMs = 10 * 60_000 }: ImageOutputOptions): ImageOutput {
  let lastSweep = 0;
  const sweep = async (): Promise<void> => {
    const t = now();
    if (t - lastSweep < ttlMs) return;
    lastSweep = t;
    for (const key of await store.list(OUTPUT_PREFIX)) {
      const m = OUTPUT_FILE.exec(key.slice(OUTPUT_PREFIX.length));
      if (m && t - Number(m[1]) > ttlMs) await store.remove(key);
    }
  };
  return {
    async publish(bytes, extension, endpointUrl) {
      const file = `_geo_${now()}_${randomUUID().replace(/-/g, '')}.${extension}`;
      await store.put(
        `${OUTPUT_PREFIX}${file}`,
        Buffer.from(bytes),
        bytes.length,
        OUTPUT_CONTENT_TYPES[extension],
      );
      void sweep().catch(() => undefined);
      return `${endpointUrl.replace(/\/+$/, '')}/output/${file}`;
    },
    async read(file) {
      const m = OUTPUT_FILE.exec(file);
      if (!m || now() - Number(m[1]) > ttlMs) return undefined;
      const key = `${OUTPUT_PREFIX}${file}`;
      if (!(await store.stat(key))) return undefined;
      return { bytes: await store.getBuffer(key), contentType: OUTPUT_CONTENT_TYPES[m[3]] };
    },
  };
}
