import type { AddressInput } from './gazetteer-types.js';
import { UNIT_MARKERS } from './street-abbreviations.js';
import { foldText } from './text-normalizer.js';

/** One reading of an address: which words are the street, the city, the region... */
export interface ParsedAddress {
  number?: string;
  street?: string;
  unit?: string;
  city?: string;
  /**
   * A larger place or district the city lies in or near ("Epsom, Auckland": the suburb Epsom of the
   * city Auckland). Only a reading of two bare names gives one.
   */
  area?: string;
  region?: string;
  postal?: string;
  country?: string;
}

/** What the parser needs to know about place names to split a line without commas. */
export interface AdminVocabulary {
  isCountry(text: string): boolean;
  isRegion(text: string): boolean;
  /**
   * Whether a text read as a region may also be something else: a region's name only within a few
   * edits ("Graz" against Slovenia's "Grad"), or a place's name as well ("Auckland"). Such a last
   * segment keeps its readings as a city too. Absent: never.
   */
  isAmbiguousRegion?(text: string): boolean;
}

const POSTAL_PATTERNS = [
  /\b[A-Z]\d[A-Z] ?\d[A-Z]\d\b/i, // Canada
  /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/i, // United Kingdom
  /\b\d{5}(?:-\d{4})?\b/, // US ZIP(+4), France, Germany...
  /\b\d{4}\b/, // Switzerland, Austria, Australia...
];
/** A Canadian forward sortation area on its own ("H2X"), only where no house number precedes it ("1 A1A"). */
const BARE_FSA = /^[A-Z]\d[A-Z]\b/i;
const HOUSE_NUMBER = /^\d+[a-z]?(?:[-/]\d+[a-z]?)?$/i;

/** Readings of an address, most likely first; the locator tries each and keeps the best matches. */
export function parseAddress(input: AddressInput, vocabulary: AdminVocabulary): ParsedAddress[] {
  if (input.singleLine?.trim()) return parseSingleLine(input.singleLine, vocabulary);
  const street = input.address?.trim() ? splitStreet(input.address.trim()) : {};
  const parsed: ParsedAddress = {
    ...street,
    city: input.city?.trim() || input.neighborhood?.trim() || input.subregion?.trim() || undefined,
    region: input.region?.trim() || undefined,
    postal: input.postal?.trim() || undefined,
    country: input.countryCode?.trim() || undefined,
  };
  return [parsed];
}

/** "123 N Main St Apt 4" → number 123, street "N Main St", unit "Apt 4"; "Hauptstrasse 5" too. */
export function splitStreet(text: string): Pick<ParsedAddress, 'number' | 'street' | 'unit'> {
  let tokens = text.split(/\s+/).filter(Boolean);
  let unit: string | undefined;
  const unitAt = tokens.findIndex((t, i) => i > 0 && (UNIT_MARKERS.has(foldText(t)) || t.startsWith('#')));
  if (unitAt > 0) {
    unit = tokens.slice(unitAt).join(' ');
    tokens = tokens.slice(0, unitAt);
  }
  if (tokens.length > 1 && HOUSE_NUMBER.test(tokens[0])) {
    return { number: tokens[0], street: tokens.slice(1).join(' '), unit };
  }
  if (tokens.length > 1 && HOUSE_NUMBER.test(tokens[tokens.length - 1])) {
    return { number: tokens[tokens.length - 1], street: tokens.slice(0, -1).join(' '), unit };
  }
  return { street: tokens.join(' '), unit };
}

function takePostal(segment: string, allowBareFsa: boolean): { postal?: string; rest: string } {
  const patterns = allowBareFsa
    ? [...POSTAL_PATTERNS.slice(0, 1), BARE_FSA, ...POSTAL_PATTERNS.slice(1)]
    : POSTAL_PATTERNS;
  for (const pattern of patterns) {
    const m = segment.match(pattern);
    if (m && m.index !== undefined) {
      const rest = `${segment.slice(0, m.index)} ${segment.slice(m.index + m[0].length)}`
        .replace(/\s+/g, ' ')
        .trim();
      return { postal: m[0], rest };
    }
  }
  return { rest: segment };
}

/** Trailing words (up to three) that satisfy a test, e.g. "... Illinois" or "... United States". */
function takeTrailing(tokens: string[], test: (text: string) => boolean): { found?: string; rest: string[] } {
  for (let n = Math.min(3, tokens.length); n >= 1; n--) {
    const tail = tokens.slice(tokens.length - n).join(' ');
    if (test(tail)) return { found: tail, rest: tokens.slice(0, tokens.length - n) };
  }
  return { rest: tokens };
}

function parseSingleLine(line: string, vocabulary: AdminVocabulary): ParsedAddress[] {
  const segments = line
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  if (segments.length > 1 && vocabulary.isCountry(last)) {
    const withCountry = parseSegmentsAfterCountry(segments.slice(0, -1), { country: last }, vocabulary);
    // "IL", "CA", "DE" are both countries and US states: keep both readings.
    if (!vocabulary.isRegion(last)) return withCountry;
    return [...parseSegmentsAfterCountry(segments, {}, vocabulary), ...withCountry];
  }
  return parseSegmentsAfterCountry(segments, {}, vocabulary);
}

function parseSegmentsAfterCountry(
  input: string[],
  given: ParsedAddress,
  vocabulary: AdminVocabulary,
): ParsedAddress[] {
  const segments = [...input];
  const base = { ...given };
  if (segments.length === 0) return [base];
  // A house number at the very start is not a postal code: keep it out of the postal search.
  const lead = segments[0].match(/^\d+[a-z]?\s+/i)?.[0] ?? '';
  segments[0] = segments[0].slice(lead.length);
  for (let i = segments.length - 1; i >= 0 && !base.postal; i--) {
    const { postal, rest } = takePostal(segments[i], i > 0 || lead === '');
    if (postal) {
      base.postal = postal;
      segments[i] = rest;
    }
  }
  const readings = readSegments([`${lead}${segments[0]}`.trim(), ...segments.slice(1)], base, vocabulary);
  // "10115 Berlin": in much of Europe the postal code leads, where elsewhere the house number does.
  if (!base.postal && /^\d{4,5}\s+$/.test(lead)) {
    readings.push(...readSegments(segments, { ...base, postal: lead.trim() }, vocabulary));
  }
  return readings;
}

function readSegments(segments: string[], base: ParsedAddress, vocabulary: AdminVocabulary): ParsedAddress[] {
  const parts = segments.filter(Boolean);
  if (parts.length === 0) return [base];
  if (parts.length > 1) return parseSegments(parts, base, vocabulary);
  return parseWords(parts[0].split(/\s+/), base, vocabulary);
}

function parseSegments(parts: string[], base: ParsedAddress, vocabulary: AdminVocabulary): ParsedAddress[] {
  const last = parts[parts.length - 1];
  // A last segment that names a region is read as the region: "Chicago, IL" has no street "Chicago". When
  // it may name a place as well ("Bishopdale, Christchurch" against Barbados's "Christ Church"), the
  // readings as a city stay, second.
  if (vocabulary.isRegion(last)) {
    const asRegion = segmentReadings(parts.slice(0, -1), { ...base, region: last });
    return vocabulary.isAmbiguousRegion?.(last) ? [...asRegion, ...segmentReadings(parts, base)] : asRegion;
  }
  // "…, Chicago IL": city and region in one segment; the reading with the whole segment as city stays second.
  const words = last.split(/\s+/);
  const trailing = words.length > 1 ? takeTrailing(words, (t) => vocabulary.isRegion(t)) : { rest: words };
  if (!base.region && trailing.found && trailing.rest.length > 0) {
    return [
      ...segmentReadings([...parts.slice(0, -1), trailing.rest.join(' ')], {
        ...base,
        region: trailing.found,
      }),
      ...segmentReadings(parts, base),
    ];
  }
  return segmentReadings(parts, base);
}

function segmentReadings(rest: string[], reading: ParsedAddress): ParsedAddress[] {
  if (rest.length === 0) return [reading];
  if (rest.length === 1) {
    const street = splitStreet(rest[0]);
    return [street.number ? { ...reading, ...street } : { ...reading, city: rest[0] }];
  }
  const street = splitStreet(rest[0]);
  const readings: ParsedAddress[] = [{ ...reading, ...street, city: rest[rest.length - 1] }];
  // "Epsom, Auckland", "Bondi, Sydney": two names and no house number may be a suburb and its city.
  if (rest.length === 2 && !street.number) readings.push({ ...reading, city: rest[0], area: rest[1] });
  return readings;
}

/** Words without commas: trailing country and region are guesses, so readings without them are kept too. */
function parseWords(words: string[], base: ParsedAddress, vocabulary: AdminVocabulary): ParsedAddress[] {
  const starts: [ParsedAddress, string[]][] = [[base, words]];
  if (!base.country && words.length > 1) {
    const { found, rest } = takeTrailing(words, (t) => vocabulary.isCountry(t) && !vocabulary.isRegion(t));
    // "New Jersey" ends in a country's name too: the reading without the country stays, second.
    if (found && rest.length > 0) starts.unshift([{ ...base, country: found }, rest]);
  }
  return starts.flatMap(([reading, tokens]) => {
    const region = tokens.length > 1 ? takeTrailing(tokens, (t) => vocabulary.isRegion(t)) : { rest: tokens };
    const splits: [ParsedAddress, string[]][] = [[reading, tokens]];
    if (region.found) splits.unshift([{ ...reading, region: region.found }, region.rest]);
    return splits.flatMap(([r, rest]) => streetAndCity(r, rest));
  });
}

function streetAndCity(reading: ParsedAddress, tokens: string[]): ParsedAddress[] {
  if (tokens.length === 0) return [reading];
  if (!HOUSE_NUMBER.test(tokens[0]) || tokens.length === 1) return [{ ...reading, city: tokens.join(' ') }];
  // Without commas the street–city boundary is unknown: try each split, longest street first.
  const readings: ParsedAddress[] = [];
  for (let cut = tokens.length - 1; cut >= 2; cut--) {
    readings.push({
      ...reading,
      number: tokens[0],
      street: tokens.slice(1, cut).join(' '),
      city: tokens.slice(cut).join(' '),
    });
  }
  readings.push({ ...reading, number: tokens[0], street: tokens.slice(1).join(' ') });
  return readings;
}
