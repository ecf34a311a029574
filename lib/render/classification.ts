import { badRequest } from '../errors.js';

/**
 * Data classification for class-breaks renderers (REST generateRenderer, SOAP GenerateDataClasses).
 * Every method returns ascending class maxima; the first class starts at the data minimum and the
 * last maximum is the data maximum.
 */
export type ClassificationMethod =
  | 'esriClassifyNaturalBreaks'
  | 'esriClassifyEqualInterval'
  | 'esriClassifyQuantile'
  | 'esriClassifyStandardDeviation'
  | 'esriClassifyGeometricalInterval'
  | 'esriClassifyDefinedInterval';

export interface ClassifyOptions {
  /** Class width for defined intervals. */
  interval?: number;
  /** Fraction of a standard deviation per class for the standard-deviation method (1, 0.5, 0.333, 0.25). */
  standardDeviationInterval?: number;
  /** Natural breaks runs on at most this many evenly spaced sorted values (default 1000). */
  sampleSize?: number;
}

/** Accepts the REST names and the SOAP names with any vendor prefix (geoClassify…, esriClassify…). */
export function parseClassificationMethod(name: string): ClassificationMethod {
  const key = name.replace(/^(esri|geo)/i, '').toLowerCase();
  const methods: Record<string, ClassificationMethod> = {
    classifynaturalbreaks: 'esriClassifyNaturalBreaks',
    classifyequalinterval: 'esriClassifyEqualInterval',
    classifyquantile: 'esriClassifyQuantile',
    classifystandarddeviation: 'esriClassifyStandardDeviation',
    classifygeometricalinterval: 'esriClassifyGeometricalInterval',
    classifydefinedinterval: 'esriClassifyDefinedInterval',
  };
  const method = methods[key];
  if (!method) throw badRequest(`Unsupported classification method: ${name}`);
  return method;
}

export function classify(
  values: readonly number[],
  method: ClassificationMethod,
  count: number,
  options: ClassifyOptions = {},
): number[] {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  const k = Math.max(1, Math.floor(count));
  if (min === max) return [max];
  let breaks: number[];
  switch (method) {
    case 'esriClassifyEqualInterval':
      breaks = Array.from({ length: k }, (_, i) => min + ((i + 1) * (max - min)) / k);
      break;
    case 'esriClassifyQuantile':
      breaks = Array.from(
        { length: k },
        (_, i) => sorted[Math.max(0, Math.ceil(((i + 1) * sorted.length) / k) - 1)],
      );
      break;
    case 'esriClassifyGeometricalInterval':
      breaks = geometric(min, max, k);
      break;
    case 'esriClassifyDefinedInterval':
      breaks = defined(min, max, options.interval);
      break;
    case 'esriClassifyStandardDeviation':
      breaks = standardDeviation(sorted, options.standardDeviationInterval ?? 1);
      break;
    default:
      breaks = naturalBreaks(sample(sorted, options.sampleSize ?? 1000), k);
  }
  breaks[breaks.length - 1] = max;
  return [...new Set(breaks)].filter((b) => b >= min && b <= max).sort((a, b) => a - b);
}

function sample(sorted: number[], size: number): number[] {
  if (sorted.length <= size) return sorted;
  return Array.from({ length: size }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (size - 1))]);
}

function geometric(min: number, max: number, k: number): number[] {
  // A geometric progression needs positive values; shift the range so it starts at 1.
  const shift = min > 0 ? 0 : 1 - min;
  const lo = min + shift;
  const ratio = ((max + shift) / lo) ** (1 / k);
  return Array.from({ length: k }, (_, i) => lo * ratio ** (i + 1) - shift);
}

function defined(min: number, max: number, interval: number | undefined): number[] {
  if (!interval || !(interval > 0))
    throw badRequest('A defined-interval classification needs a positive interval.');
  const out: number[] = [];
  for (let b = Math.floor(min / interval) * interval + interval; b < max && out.length < 1000; b += interval)
    out.push(b);
  out.push(max);
  return out;
}

function standardDeviation(sorted: number[], fraction: number): number[] {
  const n = sorted.length;
  const mean = sorted.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
  if (sd === 0) return [sorted[n - 1]];
  const step = sd * fraction;
  const out: number[] = [];
  // Breaks sit half a step either side of the mean, then every step, inside the data range.
  for (let b = mean - step / 2; b > sorted[0]; b -= step) out.unshift(b);
  for (let b = mean + step / 2; b < sorted[n - 1]; b += step) out.push(b);
  out.push(sorted[n - 1]);
  return out;
}

/** Jenks natural breaks: the partition into k classes with the least within-class variance. */
function naturalBreaks(data: number[], k: number): number[] {
  const n = data.length;
  const classes = Math.min(k, new Set(data).size);
  // lower[i][j]: first index (1-based) of the last class in the best split of data[0..i) into j classes.
  const lower: Int32Array[] = Array.from({ length: n + 1 }, () => new Int32Array(classes + 1));
  const cost: Float64Array[] = Array.from({ length: n + 1 }, () =>
    new Float64Array(classes + 1).fill(Number.POSITIVE_INFINITY),
  );
  for (let j = 1; j <= classes; j++) {
    lower[1][j] = 1;
    cost[1][j] = 0;
  }
  for (let i = 2; i <= n; i++) {
    let sum = 0;
    let sumSq = 0;
    let w = 0;
    for (let m = 1; m <= i; m++) {
      const lowIndex = i - m + 1;
      const v = data[lowIndex - 1];
      w++;
      sum += v;
      sumSq += v * v;
      const variance = sumSq - (sum * sum) / w;
      if (lowIndex > 1) {
        for (let j = 2; j <= classes; j++) {
          const candidate = variance + cost[lowIndex - 1][j - 1];
          if (candidate <= cost[i][j]) {
            lower[i][j] = lowIndex;
            cost[i][j] = candidate;
          }
        }
      }
    }
    lower[i][1] = 1;
    cost[i][1] = sumSq - (sum * sum) / w;
  }
  const breaks: number[] = [data[n - 1]];
  let end = n;
  for (let j = classes; j >= 2; j--) {
    const start = lower[end][j] - 1;
    breaks.unshift(data[start - 1]);
    end = start;
  }
  return breaks;
}
