/**
 * Optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions), bounded:
 * returns `max + 1` as soon as the distance must exceed `max`, so a scan over many names stays cheap.
 */
/** Three rows reused by every call (the function is synchronous), grown to the longest name seen. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

export function boundedEditDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0].length <= n) rows = [0, 1, 2].map(() => new Int32Array(2 * (n + 1)));
  let [prevPrev, prev, curr] = rows;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = prev[j - 1] + (ai === bj ? 0 : 1);
      if (prev[j] + 1 < d) d = prev[j] + 1;
      if (curr[j - 1] + 1 < d) d = curr[j - 1] + 1;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj && prevPrev[j - 2] + 1 < d)
        d = prevPrev[j - 2] + 1;
      curr[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prevPrev, prev, curr] = [prev, curr, prevPrev];
  }
  return prev[n] <= max ? prev[n] : max + 1;
}

/** How many edits a name of this length may carry and still count as the same name. */
export function allowedEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 8) return 1;
  return 2;
}
