/** The benchmark's input: an x/y CSV of points over a Chicago-sized box, as in the reference recipe. */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

export const CSV_HEADER = 'id,name,address,city,category,value,created,lon,lat';

export async function writePointsCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write(`${CSV_HEADER}\n`);
  const categories = ['park', 'school', 'library', 'clinic', 'station', 'market', 'museum'];
  let buffer = '';
  for (let i = 1; i <= rows; i++) {
    // A fixed linear congruential sequence: the same file on every run, no randomness.
    const a = (i * 2654435761) % 4294967296;
    const b = (i * 40503 + 12345) % 65536;
    const lon = -87.94 + (a / 4294967296) * 0.45;
    const lat = 41.64 + (b / 65536) * 0.38;
    const day = 1 + (i % 28);
    buffer += `${i},point ${i},${100 + (i % 9000)} N Main St,Chicago,${categories[i % 7]},${(i % 10007) / 10},2024-03-${day < 10 ? `0${day}` : day},${lon.toFixed(6)},${lat.toFixed(6)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.write(buffer);
  out.end();
  await once(out, 'finish');
}
