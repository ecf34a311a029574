/**
 * Service definitions (7-Zip archives) read under the archive budget: listed from their header first,
 * refused before unpacking when their files add up to more than the budget, and told apart (tiles or
 * a file geodatabase) from their names alone.
 */

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bytesSource,
  type RangeSource,
  serviceDefinitionKind,
  sevenZipEntries,
  sevenZipNames,
} from '../../../infra/service-definition.js';
import { DEFAULT_ARCHIVE_BUDGET } from '../../../lib/ingest/archive-budget.js';
import { sevenZipOf } from '../../fixtures/ingest/seven-zip.js';

describe('service definitions under the archive budget', () => {
  it('lists file paths from the header, folders left out, and tells the kind from them', async () => {
    const archive = await sevenZipOf({
      'v101/towns.gdb/a00000001.gdbtable': 'table',
      'v101/towns.gdb/a00000001.gdbtablx': 'index',
      'esriinfo/manifest.xml': '<m/>',
    });
    const names = await sevenZipNames(bytesSource(archive));
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
    const archive = await sevenZipOf({ 'layers/zeros.bin': new Uint8Array(24 * 1024 ** 2), 'a.txt': 'a' });
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
    await expect(
      sevenZipNames(bytesSource(new TextEncoder().encode('PK\u0003\u0004 not 7z'))),
    ).rejects.toThrow(expect.objectContaining({ code: 400 }));
    const archive = await sevenZipOf({ 'a.txt': 'a'.repeat(1000) });
    await expect(sevenZipEntries(archive.subarray(0, 40))).rejects.toThrow(
      expect.objectContaining({ code: 400 }),
    );
  });

  /** A RangeSource over `bytes` that counts what is read. */
  const counted = (bytes: Uint8Array) => {
    const reads: [number, number][] = [];
    const source: RangeSource = {
      size: bytes.length,
      read: async (offset, length) => {
        reads.push([offset, length]);
        return bytes.subarray(offset, offset + length);
      },
    };
    return { source, reads, total: () => reads.reduce((n, [, l]) => n + l, 0) };
  };

  it('lists a large archive from its header regions alone, packed header or plain', async () => {
    const files = {
      'v101/towns.gdb/a00000009.gdbtable': randomBytes(3 * 1024 ** 2),
      'v101/towns.gdb/a00000009.gdbtablx': randomBytes(1024 ** 2),
      'esriinfo/iteminfo.xml': '<ESRI_ItemInformation/>',
    };
    for (const switches of [[], ['-mhc=off']]) {
      const archive = await sevenZipOf(files, switches);
      expect(archive.length).toBeGreaterThan(4 * 1024 ** 2);
      const { source, reads, total } = counted(archive);
      const names = await sevenZipNames(source);
      expect(names.sort()).toEqual(Object.keys(files).sort());
      // The signature header, the next header and (packed) its streams: a few KiB of 4 MiB.
      expect(reads.length).toBe(switches.length === 0 ? 3 : 2);
      expect(total()).toBeLessThan(16 * 1024);
      expect(reads[0]).toEqual([0, 32]);
    }
  });

  it('refuses with a 400 an archive whose header lies past its end or is oversized', async () => {
    const archive = await sevenZipOf({ 'a.txt': 'a'.repeat(1000) });
    await expect(sevenZipNames(bytesSource(archive.subarray(0, 40)))).rejects.toThrow(
      expect.objectContaining({
        code: 400,
        details: ['The service definition cannot be read: the file ends before its header.'],
      }),
    );
    const huge = archive.slice();
    new DataView(huge.buffer).setBigUint64(20, 2n ** 40n, true); // the next header's size
    const { source, total } = counted(huge);
    await expect(sevenZipNames(source)).rejects.toThrow(
      expect.objectContaining({ code: 400, details: [expect.stringMatching(/header is larger than/)] }),
    );
    expect(total()).toBe(32);
    const damaged = archive.slice();
    damaged.fill(0x55, archive.length - 20); // the end of the header, kept in its place
    await expect(sevenZipNames(bytesSource(damaged))).rejects.toThrow(expect.objectContaining({ code: 400 }));
  });
});
