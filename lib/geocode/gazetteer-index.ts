import { AddressPointTable } from './address-point-table.js';
import { AdminDirectory } from './admin-directory.js';
import type { AddressPointRecord, GazetteerData, PostalRecord } from './gazetteer-types.js';
import { PlaceTable } from './place-table.js';
import { PostalTable } from './postal-table.js';

/**
 * Everything a locator searches, built once from plain records. A region's or country's own point is
 * its seat (GeoNames PPLA / PPLC) or, failing that, its most populous place: a point a person reading
 * the map would accept, unlike a centroid that can fall outside a curved region.
 */
export class GazetteerIndex {
  readonly admin: AdminDirectory;
  readonly places: PlaceTable;
  readonly postals: PostalTable;
  readonly points = new AddressPointTable();
  private readonly seats = new Map<string, number>();

  constructor(data: GazetteerData) {
    this.admin = new AdminDirectory(data.countries, data.regions, data.subregions);
    this.places = new PlaceTable(data.places);
    this.postals = new PostalTable(data.postals);
    if (data.addressPoints) this.points.add(data.addressPoints);
    this.chooseSeats();
  }

  private chooseSeats(): void {
    const { places } = this;
    const better = (key: string, id: number, seatCode: string) => {
      const current = this.seats.get(key);
      const isSeat = places.featureCodes[id] === seatCode || places.featureCodes[id] === 'PPLC';
      if (current === undefined) return true;
      const currentIsSeat =
        places.featureCodes[current] === seatCode || places.featureCodes[current] === 'PPLC';
      if (isSeat !== currentIsSeat) return isSeat;
      return places.population[id] > places.population[current];
    };
    for (let id = 0; id < places.size; id++) {
      const regionKey = `${places.countryCodes[id]}.${places.regionCodes[id]}`;
      if (better(regionKey, id, 'PPLA')) this.seats.set(regionKey, id);
      const countryKey = places.countryCodes[id];
      if (better(countryKey, id, 'PPLC')) this.seats.set(countryKey, id);
    }
  }

  /** The place that stands for a region ("US.IL") or a country ("FR"). */
  seatOf(key: string): number | undefined {
    return this.seats.get(key);
  }

  /** Street-level reference data loaded by an administrator (e.g. an OpenAddresses CSV). */
  addAddressPoints(points: readonly AddressPointRecord[]): void {
    this.points.add(points);
  }

  addPostals(postals: readonly PostalRecord[]): void {
    this.postals.add(postals);
  }
}
