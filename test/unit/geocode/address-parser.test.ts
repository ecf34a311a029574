import { describe, expect, it } from 'vitest';
import { type AdminVocabulary, parseAddress, splitStreet } from '../../../lib/geocode/address-parser.js';

const vocabulary: AdminVocabulary = {
  isCountry: (t) => ['france', 'usa', 'united states', 'il', 'ca'].includes(t.toLowerCase()),
  isRegion: (t) => ['il', 'illinois', 'ca', 'on'].includes(t.toLowerCase()),
};
const parse = (singleLine: string) => parseAddress({ singleLine }, vocabulary);

describe('address parsing', () => {
  it('reads "City, Region" as a city in a region', () => {
    expect(parse('Chicago, IL')[0]).toEqual({ city: 'Chicago', region: 'IL' });
  });

  it('reads a code that is both a country and a state both ways', () => {
    const readings = parse('Springfield, IL');
    expect(readings).toContainEqual({ city: 'Springfield', region: 'IL' });
    expect(readings).toContainEqual({ city: 'Springfield', country: 'IL' });
  });

  it('reads "City, Country" with the country taken off the end', () => {
    expect(parse('Paris, France')).toEqual([{ city: 'Paris', country: 'France' }]);
  });

  it('finds a ZIP code after the region and leaves the house number alone', () => {
    expect(parse('233 S Wacker Dr, Chicago, IL 60606')[0]).toEqual({
      number: '233',
      street: 'S Wacker Dr',
      city: 'Chicago',
      region: 'IL',
      postal: '60606',
    });
  });

  it('also reads a leading five-digit number as a postal code, as in "10115 Berlin"', () => {
    expect(parse('10115 Berlin')).toContainEqual({ postal: '10115', city: 'Berlin' });
  });

  it('reads "Street, City Region" with city and region in one segment', () => {
    expect(parse('141 W Madison Street, Chicago IL')[0]).toEqual({
      number: '141',
      street: 'W Madison Street',
      city: 'Chicago',
      region: 'IL',
    });
  });

  it('keeps the whole last segment as the city as a second reading', () => {
    expect(parse('141 W Madison Street, Chicago IL')).toContainEqual({
      number: '141',
      street: 'W Madison Street',
      city: 'Chicago IL',
    });
  });

  it('reads a Canadian FSA on its own or before its city as a postal code', () => {
    expect(parse('H2X')).toEqual([{ postal: 'H2X' }]);
    expect(parse('H2X Montreal')[0]).toEqual({ postal: 'H2X', city: 'Montreal' });
  });

  it('does not take a highway named like an FSA after a house number for a postal code', () => {
    expect(parse('1234 A1A, Fort Lauderdale')[0]).toEqual({
      number: '1234',
      street: 'A1A',
      city: 'Fort Lauderdale',
    });
  });

  it('reads a lone postal code', () => {
    expect(parse('60601')).toEqual([{ postal: '60601' }]);
  });

  it('reads a Canadian postal code with its space', () => {
    expect(parse('M5V 3L9')[0].postal).toBe('M5V 3L9');
  });

  it('splits a line without commas at a trailing region', () => {
    expect(parse('Chicago IL 60601')[0]).toEqual({ city: 'Chicago', region: 'IL', postal: '60601' });
  });

  it('tries every street–city boundary when a numbered line has no commas', () => {
    const readings = parse('233 S Wacker Dr Chicago IL');
    expect(readings).toContainEqual({ number: '233', street: 'S Wacker Dr', city: 'Chicago', region: 'IL' });
  });

  it('keeps the reading without a trailing country, which may be part of a name', () => {
    const readings = parseAddress(
      { singleLine: 'New Jersey' },
      { isCountry: (t) => t === 'Jersey', isRegion: () => false },
    );
    expect(readings).toEqual([{ city: 'New', country: 'Jersey' }, { city: 'New Jersey' }]);
  });

  it('takes separate address fields as given', () => {
    const [reading] = parseAddress(
      { address: '100 W Madison St', city: 'Chicago', region: 'IL', postal: '60602' },
      vocabulary,
    );
    expect(reading).toEqual({
      number: '100',
      street: 'W Madison St',
      city: 'Chicago',
      region: 'IL',
      postal: '60602',
    });
  });
});

describe('street splitting', () => {
  it('takes the number before the street and the unit after it', () => {
    expect(splitStreet('123 N Main St Apt 4')).toEqual({ number: '123', street: 'N Main St', unit: 'Apt 4' });
  });

  it('takes a number written after the street, as in much of Europe', () => {
    expect(splitStreet('Bahnhofstrasse 5')).toEqual({
      number: '5',
      street: 'Bahnhofstrasse',
      unit: undefined,
    });
  });
});
