/**
 * Sniffs the dialect of delimited text from a sample of its first lines, so a 2 GB file is never
 * read whole: the delimiter that splits the lines into the same number of fields wins.
 */

export type Delimiter = ',' | ';' | '\t' | '|';
/** analyze reads a delimited file's first 512 KiB, no more: the API stores only that much of an upload. */
export const ANALYZE_SAMPLE_BYTES = 512 * 1024;
const DELIMITERS: Delimiter[] = [',', ';', '\t', '|'];
const SAMPLE_LINES = 50;

/** The lines of the sample, dropping a last line the sample may have cut short. */
function sampleLines(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  if (lines.length > 1) lines.pop();
  return lines.filter((l) => l.trim() !== '').slice(0, SAMPLE_LINES);
}

/** Delimiters per line outside quoted sections ("a,b" counts no comma). */
function countOutsideQuotes(line: string, delimiter: string, qualifier: string): number {
  let count = 0;
  let quoted = false;
  for (const ch of line) {
    if (qualifier && ch === qualifier) quoted = !quoted;
    else if (!quoted && ch === delimiter) count++;
  }
  return count;
}

export function detectDelimiter(textSample: string): Delimiter {
  const lines = sampleLines(textSample);
  if (lines.length === 0) return ',';
  const qualifier = detectQualifier(textSample);
  let best: Delimiter = ',';
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => countOutsideQuotes(l, d, qualifier));
    const header = counts[0];
    if (header === 0) continue;
    const consistent = counts.filter((c) => c === header).length / counts.length;
    // Consistency first, then more columns: "a;b,c" style noise loses to the regular delimiter.
    const score = consistent * 1000 + Math.min(header, 999);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The text qualifier: a double quote when fields are wrapped in them (or by default, as publish
 * parameters say), a single quote when only those wrap fields.
 */
export function detectQualifier(textSample: string): '"' | "'" {
  const lines = sampleLines(textSample);
  const wrapped = (q: string) =>
    lines.filter((l) => new RegExp(`(^|[,;\\t|])\\s*${q}[^${q}]*${q}\\s*([,;\\t|]|$)`).test(l)).length;
  const doubles = wrapped('"');
  const singles = wrapped("'");
  return singles > doubles ? "'" : '"';
}
