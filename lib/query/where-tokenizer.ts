import { invalidWhere } from './query-errors.js';

/**
 * Splits a where clause into tokens. Statement separators and comments are rejected here, before
 * any parsing, because they are never part of a filter and are the usual shape of an injection.
 */
export type Token =
  | { kind: 'number'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  /** A bare word: keyword, function or field name; `upper` is for keyword matching. */
  | { kind: 'word'; text: string; upper: string; at: number }
  /** A "double-quoted" field name. */
  | { kind: 'quoted'; text: string; at: number }
  | { kind: 'symbol'; text: string; at: number }
  | { kind: 'end'; at: number };

/** Longest input accepted: long IN lists are legitimate, megabytes of text are not. */
export const MAX_WHERE_LENGTH = 100_000;

const SYMBOLS = ['<>', '!=', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '(', ')', ','];
const WORD_START = /[A-Za-z_\u00C0-\uFFFF]/;
const WORD_PART = /[A-Za-z0-9_$#\u00C0-\uFFFF]/;
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

export function tokenize(input: string): Token[] {
  if (input.length > MAX_WHERE_LENGTH) {
    throw invalidWhere(`the where clause is longer than ${MAX_WHERE_LENGTH} characters`);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === ';')
      throw invalidWhere(`a semicolon at position ${i + 1}: only one filter expression is allowed`);
    if (input.startsWith('--', i) || input.startsWith('/*', i)) {
      throw invalidWhere(`a comment at position ${i + 1}: comments are not allowed`);
    }
    if (c === "'" || ((c === 'N' || c === 'n') && input[i + 1] === "'" && !isWordBefore(input, i))) {
      const start = c === "'" ? i : i + 1;
      const [value, next] = readQuoted(input, start, "'", 'string literal');
      tokens.push({ kind: 'string', value, at: i });
      i = next;
      continue;
    }
    if (c === '"') {
      const [text, next] = readQuoted(input, i, '"', 'quoted field name');
      if (text === '') throw invalidWhere(`an empty quoted field name at position ${i + 1}`);
      tokens.push({ kind: 'quoted', text, at: i });
      i = next;
      continue;
    }
    const number = /\d|\./.test(c) ? NUMBER.exec(input.slice(i, i + 400)) : null;
    if (number) {
      if (WORD_PART.test(input[i + number[0].length] ?? '')) {
        throw invalidWhere(`a malformed number at position ${i + 1}`);
      }
      tokens.push({ kind: 'number', text: number[0], at: i });
      i += number[0].length;
      continue;
    }
    if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < input.length && WORD_PART.test(input[j])) j++;
      const text = input.slice(i, j);
      tokens.push({ kind: 'word', text, upper: text.toUpperCase(), at: i });
      i = j;
      continue;
    }
    const symbol = SYMBOLS.find((s) => input.startsWith(s, i));
    if (!symbol) throw invalidWhere(`an unexpected character '${c}' at position ${i + 1}`);
    tokens.push({ kind: 'symbol', text: symbol === '!=' ? '<>' : symbol, at: i });
    i += symbol.length;
  }
  tokens.push({ kind: 'end', at: input.length });
  return tokens;
}

/** `N'abc'` (a national-character literal) only when N is a word of its own. */
const isWordBefore = (input: string, i: number): boolean => i > 0 && WORD_PART.test(input[i - 1]);

/** Reads a quoted run where a doubled quote stands for one quote; returns the text and next index. */
function readQuoted(input: string, start: number, quote: string, what: string): [string, number] {
  let out = '';
  let i = start + 1;
  for (;;) {
    const end = input.indexOf(quote, i);
    if (end < 0) throw invalidWhere(`an unterminated ${what} starting at position ${start + 1}`);
    out += input.slice(i, end);
    if (input[end + 1] === quote) {
      out += quote;
      i = end + 2;
    } else return [out, end + 1];
  }
}
