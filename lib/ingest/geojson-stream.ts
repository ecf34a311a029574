/**
 * GeoJSON read as a stream: the features of a FeatureCollection come out one at a time, each parsed by
 * JSON.parse on its own bytes, so a file of any size is read in the memory of its largest feature.
 * The splitter follows only JSON's structure (strings with escapes, brackets, the top-level keys); it
 * never interprets values itself. A document that is not a FeatureCollection (a single Feature or
 * geometry) is kept whole, within `maxDocumentBytes`, and handed back as one value.
 */
import { badRequest } from '../errors.js';

export interface GeoJsonStreamLimits {
  /** Largest single feature, in bytes of its JSON text. */
  maxFeatureBytes: number;
  /** Largest document kept whole when it is not a FeatureCollection. */
  maxDocumentBytes: number;
}

export const DEFAULT_GEOJSON_LIMITS: GeoJsonStreamLimits = {
  maxFeatureBytes: 256 * 1024 ** 2,
  maxDocumentBytes: 256 * 1024 ** 2,
};

/** What the stream yields: each feature of a collection, or the whole document when it is not one. */
export type GeoJsonItem = { kind: 'feature'; value: unknown } | { kind: 'document'; value: unknown };

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

const unreadable = (why: string) =>
  badRequest('Unable to read the file.', [`The file is not valid GeoJSON: ${why}`]);

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw unreadable(`${what} could not be parsed.`);
  }
}

/**
 * Splits a GeoJSON byte stream. Keys of the top-level object are followed; when the key `features`
 * opens an array, each element's bytes are collected and parsed as they close.
 */
export async function* geoJsonItems(
  chunks: AsyncIterable<Buffer | Uint8Array>,
  limits: GeoJsonStreamLimits = DEFAULT_GEOJSON_LIMITS,
): AsyncGenerator<GeoJsonItem> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let first = true;
  // Whole-document bytes, kept until a features array shows the document is a collection.
  let whole: Buffer[] | undefined = [];
  let wholeSize = 0;
  // Top-level key tracking: the bytes of the key being read and the last complete key.
  let readingKey = false;
  let expectKey = false;
  let keyBytes: number[] = [];
  let lastKey = '';
  let afterColon = false;
  // Inside the features array (at depth 2): the element being collected.
  let inFeatures = false;
  let featureParts: Buffer[] = [];
  let featureSize = 0;
  let featureStart = -1;
  let featuresSeen = false;

  for await (const raw of chunks) {
    let chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (first && chunk.length > 0) {
      first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    if (whole) {
      wholeSize += chunk.length;
      if (wholeSize > limits.maxDocumentBytes && !featuresSeen)
        throw unreadable(
          `a document that is not a FeatureCollection may hold at most ${limits.maxDocumentBytes} bytes.`,
        );
      whole.push(chunk);
    }
    const items: unknown[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (readingKey) {
            readingKey = false;
            lastKey = Buffer.from(keyBytes).toString('utf8');
          }
        } else if (readingKey && keyBytes.length < 64) keyBytes.push(b);
        continue;
      }
      if (isSpace(b)) continue;
      if (inFeatures && depth === 2 && featureStart < 0 && b !== COMMA && b !== CLOSE_ARRAY) {
        if (b !== OPEN_OBJECT) throw unreadable('an element of "features" is not an object.');
        featureStart = i;
      }
      switch (b) {
        case QUOTE:
          inString = true;
          if (depth === 1 && expectKey) {
            readingKey = true;
            expectKey = false;
            keyBytes = [];
          }
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (depth === 1 && afterColon && b === OPEN_ARRAY && lastKey === 'features') {
            inFeatures = true;
            featuresSeen = true;
            whole = undefined;
          }
          depth++;
          if (depth === 1) expectKey = b === OPEN_OBJECT;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          depth--;
          if (depth < 0) throw unreadable('a closing bracket has no opening one.');
          if (inFeatures && depth === 2 && b === CLOSE_OBJECT && featureStart >= 0) {
            featureParts.push(chunk.subarray(featureStart, i + 1));
            featureSize += i + 1 - featureStart;
            if (featureSize > limits.maxFeatureBytes)
              throw unreadable(`a feature may hold at most ${limits.maxFeatureBytes} bytes.`);
            items.push(parseJson(Buffer.concat(featureParts), 'a feature'));
            featureParts = [];
            featureSize = 0;
            featureStart = -1;
          } else if (inFeatures && depth === 1) {
            inFeatures = false;
          }
          break;
        case COMMA:
          if (depth === 1) expectKey = true;
          break;
        case COLON:
          break;
      }
      afterColon = depth === 1 && b === COLON;
    }
    if (featureStart >= 0) {
      featureParts.push(chunk.subarray(featureStart));
      featureSize += chunk.length - featureStart;
      if (featureSize > limits.maxFeatureBytes)
        throw unreadable(`a feature may hold at most ${limits.maxFeatureBytes} bytes.`);
      featureStart = 0;
    }
    for (const value of items) yield { kind: 'feature', value };
  }
  if (inString || depth !== 0) throw unreadable('the file ends inside a value.');
  if (whole) {
    if (wholeSize === 0) throw unreadable('the file is empty.');
    yield { kind: 'document', value: parseJson(Buffer.concat(whole), 'the file') };
  }
}
