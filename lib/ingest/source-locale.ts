import type { DateFormat } from './field-types.js';

/**
 * How a locale writes numbers and dates, for publishParameters' sourceLocale: whether its decimal
 * mark is a comma ("de", "fr": 3,5) and which way round it writes a short date ("en-US" month
 * first, "en-GB", "de", "fr" day first, "ja", "sv" year first). Read from the runtime's CLDR data
 * (Intl), so every locale it knows is covered.
 */
export interface LocaleConventions {
  /** The BCP 47 tag as Intl resolved it. */
  locale: string;
  decimalComma: boolean;
  /** The order of a numeric short date. */
  dateOrder: Extract<DateFormat, 'mdy' | 'dmy' | 'ymd'>;
}

const cache = new Map<string, LocaleConventions | null>();

/**
 * The conventions of a locale tag ("de", "fr-FR", "en_US"), or null when the tag is not a locale
 * (the caller reports that as the client's error).
 */
export function localeConventions(tag: string): LocaleConventions | null {
  const key = tag.trim().replace(/_/g, '-');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let result: LocaleConventions | null = null;
  try {
    const [locale] = Intl.getCanonicalLocales(key);
    if (locale) {
      const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal');
      const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' })
        .formatToParts(Date.UTC(2024, 10, 23))
        .map((p) => p.type);
      const day = parts.indexOf('day');
      const month = parts.indexOf('month');
      const year = parts.indexOf('year');
      result = {
        locale,
        decimalComma: decimal?.value === ',',
        dateOrder: year < month && year < day ? 'ymd' : day < month ? 'dmy' : 'mdy',
      };
    }
  } catch {
    result = null;
  }
  cache.set(key, result);
  return result;
}
