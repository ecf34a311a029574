/** The default Geocoder: the embedded gazetteer locator of the geocoding service, loaded once. */
import { loadPackageGazetteer } from '../../infra/gazetteer/package-gazetteer.js';
import { GazetteerIndex } from '../../lib/geocode/gazetteer-index.js';
import { createLocator, type Locator } from '../../lib/geocode/locator.js';
import type { Geocoder } from './geocoder.js';

export function createGazetteerGeocoder(load: () => Promise<Locator> = defaultLocator): Geocoder {
  let locator: Promise<Locator> | undefined;
  return {
    async geocodeBatch(records, options = {}) {
      locator ??= load().catch((e) => {
        locator = undefined;
        throw e;
      });
      const l = await locator;
      const out = [];
      // The locator takes at most maxBatchSize records per call, as ArcGIS does.
      for (let i = 0; i < records.length; i += l.info.maxBatchSize) {
        const chunk = records.slice(i, i + l.info.maxBatchSize);
        const results = l.geocodeAddresses(
          chunk,
          options.countryCode ? { countryCode: options.countryCode } : {},
        );
        for (const r of results) {
          out.push({
            objectId: r.resultId,
            location: r.status === 'U' || !r.match ? null : { x: r.match.lon, y: r.match.lat },
          });
        }
      }
      return out;
    },
  };
}

async function defaultLocator(): Promise<Locator> {
  return createLocator(new GazetteerIndex(await loadPackageGazetteer()));
}
