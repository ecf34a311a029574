/**
 * Service definitions (.sd): 7-Zip archives ArcGIS writes to publish a service. 7z-wasm (7-Zip in
 * WebAssembly, no native build) unpacks them in memory (the file is bounded by SQLITE_MAX_BYTES);
 * one carrying a tile cache publishes as a tile package does, one carrying a file geodatabase as a
 * file geodatabase does, and anything else is refused naming what the archive holds.
 */
import { createRequire } from 'node:module';
import type { SevenZipModuleFactory } from '7z-wasm';
import { badRequest } from '../lib/errors.js';

// The package is a UMD bundle whose types describe an ES default export: required as CommonJS.
const SevenZip = createRequire(import.meta.url)('7z-wasm') as SevenZipModuleFactory;

const unreadable = (detail: string) => badRequest('Unable to read the file.', [detail]);

/** The 7-Zip signature: '7z' BC AF 27 1C. */
export const isSevenZip = (b: Uint8Array): boolean =>
  b.length > 6 &&
  b[0] === 0x37 &&
  b[1] === 0x7a &&
  b[2] === 0xbc &&
  b[3] === 0xaf &&
  b[4] === 0x27 &&
  b[5] === 0x1c;

/** Every file of a 7-Zip archive by its path; a fresh module each time, so nothing stays in its heap. */
export async function sevenZipEntries(bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  if (!isSevenZip(bytes)) throw unreadable('The file is not a service definition (no 7-Zip signature).');
  const messages: string[] = [];
  const sz = await SevenZip({ print: () => {}, printErr: (s: string) => messages.push(s) });
  sz.FS.writeFile('/in.sd', bytes);
  sz.FS.mkdir('/out');
  try {
    sz.callMain(['x', '/in.sd', '-o/out', '-y', '-bd']);
  } catch (e) {
    messages.push(e instanceof Error ? e.message : String(e));
  }
  const out: Record<string, Uint8Array> = {};
  const walk = (dir: string, prefix: string) => {
    for (const name of sz.FS.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      if (sz.FS.isDir(sz.FS.stat(path).mode)) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = sz.FS.readFile(path);
    }
  };
  walk('/out', '');
  const errors = messages.filter((m) => /error|cannot|unexpected|truncat/i.test(m));
  if (errors.length > 0 || Object.keys(out).length === 0)
    throw unreadable(`The service definition cannot be unpacked: ${errors.join(' ') || 'it holds no file'}.`);
  return out;
}

export type ServiceDefinitionKind = 'tiles' | 'fileGeodatabase';

/** What the archive carries: a tile cache (conf.xml or root.json with bundles), or a file geodatabase. */
export function serviceDefinitionKind(entries: Record<string, Uint8Array>): ServiceDefinitionKind {
  const names = Object.keys(entries);
  const tiles =
    names.some((n) => /(^|\/)(conf\.xml|root\.json)$/i.test(n)) &&
    names.some((n) => /\.(bundle|pbf|png|jpg)$/i.test(n));
  if (tiles) return 'tiles';
  if (names.some((n) => /(^|\/)[^/]+\.gdb\/a0000000[1-9]\.gdbtable$/i.test(n))) return 'fileGeodatabase';
  const kinds = [
    ...new Set(names.map((n) => (n.includes('.') ? `.${n.split('.').pop()?.toLowerCase()}` : n))),
  ];
  throw badRequest('Unable to publish the file.', [
    `The service definition carries neither a tile cache nor a file geodatabase; it holds ${names.length} files (${kinds.slice(0, 12).join(', ')}).`,
  ]);
}
