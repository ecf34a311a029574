/**
 * Service definitions (7-Zip archives) read under the archive budget: listed from their header first,
 * refused before unpacking when their files add up to more than the budget, and told apart (tiles or
 * a file geodatabase) from their names alone.
 */
import { createRequire } from 'node:module';
import type { SevenZipModuleFactory } from '7z-wasm';
import { describe, expect, it } from 'vitest';
import { serviceDefinitionKind, sevenZipEntries, sevenZipNames } from '../../../infra/service-definition.js';
import { DEFAULT_ARCHIVE_BUDGET } from '../../../lib/ingest/archive-budget.js';

const SevenZip = createRequire(import.meta.url)('7z-wasm') as SevenZipModuleFactory;

/** A 7-Zip archive written by 7-Zip itself of `files` (paths under a root folder). */
async function sevenZip(files: Record<string, Uint8Array | string>): Promise<Uint8Array> {
  const sz = await SevenZip({ print: () => {}, printErr: () => {} });
  sz.FS.mkdir('/src');
  const made = new Set<string>();
  for (const [path, data] of Object.entries(files)) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = `/src/${parts.slice(0, i).join('/')}`;
      if (!made.has(dir)) sz.FS.mkdir(dir);
      made.add(dir);
    }
    sz.FS.writeFile(`/src/${path}`, data);
  }
  sz.FS.chdir('/src');
  sz.callMain(['a', '/out.7z', '*', '-bd']);
  return sz.FS.readFile('/out.7z');
}

describe('service definitions under the archive budget', () => {
  it('lists file paths from the header, folders left out, and tells the kind from them', async () => {
    const archive = await sevenZip({
      'v101/towns.gdb/a00000001.gdbtable': 'table',
      'v101/towns.gdb/a00000001.gdbtablx': 'index',
      'esriinfo/manifest.xml': '<m/>',
    });
    const names = await sevenZipNames(archive);
    expect(names.sort()).toEqual([
      'esriinfo/manifest.xml',
      'v101/towns.gdb/a00000001.gdbtable',
      'v101/towns.gdb/a00000001.gdbtablx',
    ]);
    expect(serviceDefinitionKind(names)).toBe('fileGeodatabase');
    const entries = await sevenZipEntries(archive);
    expect(new TextDecoder().decode(entries['v101/towns.gdb/a00000001.gdbtable'])).toBe('table');
    expect(Object.keys(entries).sort()).toEqual(names.sort());
  });

  it('refuses before unpacking an archive whose files add up past the budget', async () => {
    // 24 MiB of zeros pack into a few KiB: past the 16 MiB every archive may reach, and 100 times its size.
    const archive = await sevenZip({ 'layers/zeros.bin': new Uint8Array(24 * 1024 ** 2), 'a.txt': 'a' });
    expect(archive.length).toBeLessThan(100 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    await expect(sevenZipEntries(archive)).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        details: ['The archive inflates to more than 100 times its compressed size (ARCHIVE_MAX_RATIO).'],
      }),
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 ** 2);
    await expect(sevenZipEntries(archive, { ...DEFAULT_ARCHIVE_BUDGET, maxEntries: 1 })).rejects.toThrow(
      expect.objectContaining({ details: ['The archive has more than 1 entries (ARCHIVE_MAX_ENTRIES).'] }),
    );
    const roomy = { ...DEFAULT_ARCHIVE_BUDGET, maxRatio: 100_000 };
    expect((await sevenZipEntries(archive, roomy))['layers/zeros.bin'].length).toBe(24 * 1024 ** 2);
  });

  it('refuses a file that is not 7-Zip, and a damaged one, with a 400', async () => {
    await expect(sevenZipNames(new TextEncoder().encode('PK\u0003\u0004 not 7z'))).rejects.toThrow(
      expect.objectContaining({ code: 400 }),
    );
    const archive = await sevenZip({ 'a.txt': 'a'.repeat(1000) });
    await expect(sevenZipEntries(archive.subarray(0, 40))).rejects.toThrow(
      expect.objectContaining({ code: 400 }),
    );
  });
});
