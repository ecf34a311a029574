import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  type ArchiveBudget,
  DEFAULT_ARCHIVE_BUDGET,
  unsafeEntryName,
  unzipWithBudget,
} from '../../../lib/ingest/archive-budget.js';
import { deflated, stored, writeZip, zerosDeflate, zipBomb } from '../../fixtures/ingest/zip-writer.js';

const budget: ArchiveBudget = { maxEntries: 10, maxRatio: 100, maxBytes: 64 * 1024 ** 2 };
const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8');
const refusedWith = (detail: string | RegExp) =>
  expect.objectContaining({
    code: 400,
    message: 'Unable to read the archive.',
    details: [typeof detail === 'string' ? detail : expect.stringMatching(detail)],
  });

describe('unzipWithBudget', () => {
  it('reads the entries of an ordinary zip, deflated and stored', async () => {
    const zip = zipSync({ 'a.txt': Buffer.from('hello'), 'dir/b.txt': [Buffer.from('world'), { level: 0 }] });
    const entries = await unzipWithBudget(zip, budget);
    expect([...entries.keys()].sort()).toEqual(['a.txt', 'dir/b.txt']);
    expect(text(entries.get('a.txt'))).toBe('hello');
    expect(text(entries.get('dir/b.txt'))).toBe('world');
  });

  it('keeps only the entries asked for', async () => {
    const zip = writeZip([deflated('a.shp', 'x'.repeat(100)), deflated('b.txt', 'skip me')]);
    const entries = await unzipWithBudget(zip, budget, (name) => name.endsWith('.shp'));
    expect([...entries.keys()]).toEqual(['a.shp']);
    expect(entries.get('a.shp')?.length).toBe(100);
  });

  // The refusal names the ratio, so it came at 100 times the compressed size (under 500 MB inflated),
  // not at the 4 GB the entry holds or at the absolute ceiling; how long that takes is the bench's business.
  it('stops a 4 MB bomb of 4 GB of zeros at the ratio budget', async () => {
    const bomb = zipBomb('zeros.dbf', 4096);
    expect(bomb.length).toBeLessThan(5 * 1024 ** 2);
    await expect(unzipWithBudget(bomb, DEFAULT_ARCHIVE_BUDGET)).rejects.toThrow(
      refusedWith('The archive inflates to more than 100 times its compressed size (ARCHIVE_MAX_RATIO).'),
    );
  });

  it('stops at the absolute ceiling even when the ratio would allow more', async () => {
    const zip = writeZip([{ name: 'z.bin', data: zerosDeflate(8), method: 8, declaredSize: 8 * 1024 ** 2 }]);
    await expect(
      unzipWithBudget(zip, { maxEntries: 10, maxRatio: 1e9, maxBytes: 4 * 1024 ** 2 }),
    ).rejects.toThrow(
      refusedWith('The archive inflates to more than 4194304 bytes (ARCHIVE_MAX_INFLATED_BYTES).'),
    );
  });

  it('refuses an entry that inflates past the size it declares', async () => {
    const zip = writeZip([{ name: 'liar.bin', data: zerosDeflate(2), method: 8, declaredSize: 1024 }]);
    await expect(unzipWithBudget(zip, DEFAULT_ARCHIVE_BUDGET)).rejects.toThrow(
      refusedWith('The entry "liar.bin" inflates to more bytes than it declares.'),
    );
  });

  it('lets a small, highly compressible archive inflate to the minimum allowance', async () => {
    const zip = writeZip([{ name: 'z.bin', data: zerosDeflate(2), method: 8, declaredSize: 2 * 1024 ** 2 }]);
    expect(zip.length * 100).toBeLessThan(2 * 1024 ** 2);
    const entries = await unzipWithBudget(zip, DEFAULT_ARCHIVE_BUDGET);
    expect(entries.get('z.bin')?.length).toBe(2 * 1024 ** 2);
  });

  it('refuses more entries than the budget allows before inflating any', async () => {
    const zip = writeZip(Array.from({ length: 11 }, (_, i) => stored(`f${i}.txt`, 'x')));
    await expect(unzipWithBudget(zip, budget)).rejects.toThrow(
      refusedWith('The archive has more than 10 entries (ARCHIVE_MAX_ENTRIES).'),
    );
  });

  it.each([
    ['../evil.shp', '../evil.shp', "has a '..' segment"],
    ['a/../../evil.shp', 'a/../../evil.shp', "has a '..' segment"],
    ['..\\evil.shp', '../evil.shp', "has a '..' segment"],
    ['/etc/passwd', '/etc/passwd', 'is an absolute path'],
    ['C:\\evil.shp', 'C:/evil.shp', 'is an absolute path'],
  ])('refuses the zip-slip name %s', async (name, shown, why) => {
    const zip = writeZip([stored('ok.txt', 'x'), stored(name, 'y')]);
    await expect(unzipWithBudget(zip, budget)).rejects.toThrow(
      refusedWith(`The entry name ${JSON.stringify(shown)} ${why}.`),
    );
  });

  it('accepts names with dots that are not parent segments', () => {
    expect(unsafeEntryName('a..b/c...shp')).toBeNull();
    expect(unsafeEntryName('./a.shp')).toBeNull();
    expect(unsafeEntryName('x/..')).toBe("has a '..' segment");
  });

  it('refuses a truncated archive', async () => {
    const zip = writeZip([deflated('a.txt', `${'z'.repeat(10_000)}${Math.random()}`)]);
    await expect(unzipWithBudget(zip.subarray(0, zip.length - 30), budget)).rejects.toThrow(
      refusedWith(/^The file is not a readable zip archive/),
    );
    await expect(unzipWithBudget(zip.subarray(0, 40), budget)).rejects.toThrow(
      refusedWith(/^The file is not a readable zip archive/),
    );
  });

  it('refuses a file that is not a zip, and an empty one', async () => {
    await expect(unzipWithBudget(Buffer.from('name,x,y\n1,2,3\n'), budget)).rejects.toThrow(
      refusedWith(/^The file is not a readable zip archive/),
    );
    await expect(unzipWithBudget(Buffer.alloc(0), budget)).rejects.toThrow(refusedWith('The file is empty.'));
  });

  it('refuses corrupt deflate data', async () => {
    const zip = writeZip([{ name: 'bad.txt', data: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]), method: 8 }]);
    await expect(unzipWithBudget(zip, budget)).rejects.toThrow(/Unable to read the archive/);
  });
});
