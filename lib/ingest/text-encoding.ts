/**
 * Works out how uploaded text is encoded from its first bytes (a prefix sample is enough, so huge
 * files are never held whole) and decodes it. Text that is not valid UTF-8 is taken as Latin-1,
 * read as windows-1252, as the WHATWG Encoding Standard defines the label (smart quotes, €).
 */

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'latin1';

export function detectEncoding(bytes: Uint8Array): TextEncodingName {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8-bom';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return isValidUtf8(bytes) ? 'utf-8' : 'latin1';
}

/**
 * Whether the bytes are well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF). A sequence cut
 * off by the end of the sample is allowed: the sample is a prefix of a longer file.
 */
export function isValidUtf8(bytes: Uint8Array): boolean {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return false;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return true; // cut by the end of the sample
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

/** Decodes bytes to text; `{ stream: true }` keeps a character split between chunks for the next call. */
export interface ChunkDecoder {
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

/**
 * windows-1252 code points of bytes 0x80–0x9F (the rest equal their byte). Written out because
 * Node's TextDecoder treats the label as ISO-8859-1 and turns “ ” € into control characters.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

const windows1252: ChunkDecoder = {
  decode(bytes = new Uint8Array(0)) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      const codes = Array.from(bytes.subarray(i, i + 8192), (b) =>
        b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : b,
      );
      out += String.fromCharCode(...codes);
    }
    return out;
  },
};

const LABELS: Record<Exclude<TextEncodingName, 'latin1'>, string> = {
  'utf-8': 'utf-8',
  'utf-8-bom': 'utf-8',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
};

/** A decoder for the encoding, for whole texts or a stream of chunks. Strips a byte-order mark. */
export const decoderFor = (encoding: TextEncodingName): ChunkDecoder =>
  encoding === 'latin1' ? windows1252 : new TextDecoder(LABELS[encoding]);

/** The bytes as text in the given encoding, without a byte-order mark. */
export function decode(bytes: Uint8Array, encoding: TextEncodingName = detectEncoding(bytes)): string {
  return decoderFor(encoding).decode(bytes);
}
