import { BoundaryLookup } from '../../lib/geocode/boundary-lookup.js';
import { GazetteerIndex } from '../../lib/geocode/gazetteer-index.js';
import { createLocator, type Locator, type LocatorOptions } from '../../lib/geocode/locator.js';
import { loadPackageBoundaries } from './boundary-loader.js';
import { loadPackageGazetteer } from './package-gazetteer.js';

/**
 * The locator over the gazetteers shipped as npm packages (GeoNames cities and admin1 regions, ISO
 * countries, US ZIP codes and Canadian FSAs). Address points are added to `locator.index` later, from
 * a CSV (loadAddressPointsCsv) or from any other source of AddressPointRecords.
 */
export async function createPackageLocator(options: LocatorOptions = {}): Promise<Locator> {
  const data = await loadPackageGazetteer();
  const countries = data.countries.map((c) => c.iso2);
  return createLocator(new GazetteerIndex(data), { serviceName: 'World', ...options }, countries);
}

/** Country and US-state polygons for lookup publishing (locationType "lookup"). */
export async function createPackageBoundaryLookup(): Promise<BoundaryLookup> {
  return new BoundaryLookup(await loadPackageBoundaries());
}
