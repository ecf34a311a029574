import { canonicalToken } from './street-abbreviations.js';

/** Letters that Unicode decomposition leaves whole but people type in plain ASCII. */
const LETTER_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

const COMBINING_MARKS = /\p{M}+/gu;
const SPECIAL_LETTERS = /[ßæœøłđðþı]/g;
const NON_ALPHANUMERIC = /[^\p{L}\p{N}]+/gu;
const ASCII_ONLY = /^[\x20-\x7e]*$/;
const NON_ALPHANUMERIC_ASCII = /[^a-z0-9]+/g;

/** Lower case, accents and ligatures folded, punctuation turned into single spaces, trimmed. */
export function foldText(text: string): string {
  // Most reference names are plain ASCII: skip Unicode decomposition for them.
  if (ASCII_ONLY.test(text)) {
    return text.toLowerCase().replace(/'/g, '').replace(NON_ALPHANUMERIC_ASCII, ' ').trim();
  }
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPECIAL_LETTERS, (ch) => LETTER_FOLDS[ch] ?? ch)
    .replace(/['’]/g, '')
    .replace(NON_ALPHANUMERIC, ' ')
    .trim();
}

/** Folded tokens with abbreviations made canonical ("St. Louis" and "Saint-Louis" give the same). */
export function keyTokens(text: string): string[] {
  const folded = foldText(text);
  return folded ? folded.split(' ').map(canonicalToken) : [];
}

/** The comparison key of a name: canonical tokens joined by single spaces. */
export const nameKey = (text: string): string => keyTokens(text).join(' ');

/** A postal code as compared: upper case, no spaces or dashes ("m5v 3l9" → "M5V3L9"). */
export const postalKey = (text: string): string => text.toUpperCase().replace(/[\s-]+/g, '');
