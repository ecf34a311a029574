/** The default Geocoder: the process's shared embedded locator (infra/locator-service.ts). */
import { createPackageLocator } from '../../infra/gazetteer/package-locator.js';
import type { Locator } from '../../lib/geocode/locator.js';
import type { Geocoder } from './geocoder.js';

/**
 * `load` is called for every batch so the shared locator can catch up with address points stored since;
 * without one, the shipped-package locator is built once for this geocoder.
 */
export function createGazetteerGeocoder(load: () => Promise<Locator> = packageLocatorOnce()): Geocoder {
  return {
    async geocodeBatch(records, options = {}) {
      const l = await load();
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
            status: r.status,
            ...(r.match
              ? {
                  candidate: {
                    score: r.match.score,
                    matchAddr: r.match.matchAddr,
                    addrType: r.match.addrType,
                  },
                }
              : {}),
          });
        }
      }
      return out;
    },
  };
}

function packageLocatorOnce(): () => Promise<Locator> {
  let locator: Promise<Locator> | undefined;
  return () => {
    locator ??= createPackageLocator().catch((e) => {
      locator = undefined;
      throw e;
    });
    return locator;
  };
}
