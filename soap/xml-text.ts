/** Character-level XML helpers shared by the WSDL writer, the encoder and the fault renderer. */

// Everything XML 1.0 can carry; the rest (most C0 controls, lone surrogates, U+FFFE/U+FFFF) cannot
// appear even escaped.
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTR_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\n': '&#10;', '\t': '&#9;' };

/** Escapes element text; characters XML cannot carry at all become U+FFFD. Keeps \r through a round trip. */
const NEEDS_TEXT_ESCAPE = /[&<>\r]|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export function escapeText(value: string): string {
  if (!NEEDS_TEXT_ESCAPE.test(value)) return value;
  return value.replace(INVALID_XML_CHARS, '\uFFFD').replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]);
}

export function escapeAttribute(value: string): string {
  return value.replace(INVALID_XML_CHARS, '\uFFFD').replace(/[&<>"\r\n\t]/g, (c) => ATTR_ESCAPES[c]);
}

/**
 * xs:double/xs:float lexical form. JavaScript's shortest round-trip rendering is lossless; only the
 * special values need the XML Schema spellings.
 */
export function formatDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'INF';
  if (value === Number.NEGATIVE_INFINITY) return '-INF';
  if (Object.is(value, -0)) return '-0';
  return String(value);
}

export const INTEGER_RANGES = {
  int: [-2147483648, 2147483647],
  short: [-32768, 32767],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  unsignedByte: [0, 255],
} as const;
export type IntegerKind = keyof typeof INTEGER_RANGES;

export const isIntegerKind = (type: string): type is IntegerKind => type in INTEGER_RANGES;

export const fitsInteger = (value: number, kind: IntegerKind): boolean =>
  Number.isInteger(value) && value >= INTEGER_RANGES[kind][0] && value <= INTEGER_RANGES[kind][1];
