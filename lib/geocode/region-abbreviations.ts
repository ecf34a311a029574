/**
 * Postal abbreviations of first-level regions where GeoNames codes are numbers (for the US the
 * GeoNames code already is the postal abbreviation). Keyed by country, then by region name.
 */
export const REGION_ABBREVIATIONS: Record<string, Record<string, string>> = {
  CA: {
    alberta: 'AB',
    'british columbia': 'BC',
    manitoba: 'MB',
    'new brunswick': 'NB',
    'newfoundland and labrador': 'NL',
    'northwest territories': 'NT',
    'nova scotia': 'NS',
    nunavut: 'NU',
    ontario: 'ON',
    'prince edward island': 'PE',
    quebec: 'QC',
    saskatchewan: 'SK',
    yukon: 'YT',
  },
  AU: {
    'australian capital territory': 'ACT',
    'new south wales': 'NSW',
    'northern territory': 'NT',
    queensland: 'QLD',
    'south australia': 'SA',
    tasmania: 'TAS',
    victoria: 'VIC',
    'western australia': 'WA',
  },
};

/** Words that wrap a region's name in official styles ("State of Mahārāshtra", "Province of Ontario", "Waikato Region"). */
export const REGION_NAME_AFFIXES =
  /^(?:state|province|region|canton|county|department|prefecture) of |(?<=.) (?:region|province|prefecture|oblast|governorate|voivodeship|state)$/;
