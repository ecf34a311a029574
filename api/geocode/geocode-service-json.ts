import type { LocatorInfo } from '../../lib/geocode/locator.js';

const stringField = (name: string, alias: string, length: number) => ({
  name,
  type: 'esriFieldTypeString',
  alias,
  required: false,
  length,
});

/** Input fields of findAddressCandidates and of batch records, named as the ArcGIS World locator names them. */
export const ADDRESS_FIELDS = [
  stringField('Address', 'Address or Place', 100),
  stringField('Address2', 'Address2', 100),
  stringField('Address3', 'Address3', 100),
  stringField('Neighborhood', 'Neighborhood', 50),
  stringField('City', 'City', 50),
  stringField('Subregion', 'County', 50),
  stringField('Region', 'State', 50),
  stringField('Postal', 'ZIP', 20),
  stringField('PostalExt', 'ZIP4', 20),
  stringField('CountryCode', 'Country', 100),
];

const doubleField = (name: string, alias: string) => ({
  name,
  type: 'esriFieldTypeDouble',
  alias,
  required: false,
});

/** Output fields a candidate can carry (outFields=* returns all of them). */
export const CANDIDATE_FIELDS = [
  stringField('Loc_name', 'Loc_name', 20),
  stringField('Status', 'Status', 1),
  doubleField('Score', 'Score'),
  stringField('Match_addr', 'Match_addr', 500),
  stringField('LongLabel', 'LongLabel', 500),
  stringField('ShortLabel', 'ShortLabel', 500),
  stringField('Addr_type', 'Addr_type', 20),
  stringField('Type', 'Type', 50),
  stringField('PlaceName', 'PlaceName', 200),
  { name: 'Rank', type: 'esriFieldTypeInteger', alias: 'Rank', required: false },
  stringField('AddNum', 'AddNum', 50),
  stringField('StAddr', 'StAddr', 300),
  stringField('StName', 'StName', 125),
  stringField('City', 'City', 100),
  stringField('Region', 'Region', 100),
  stringField('RegionAbbr', 'RegionAbbr', 50),
  stringField('Postal', 'Postal', 20),
  stringField('Country', 'Country', 3),
  stringField('CntryName', 'CntryName', 100),
  doubleField('X', 'X'),
  doubleField('Y', 'Y'),
  doubleField('DisplayX', 'DisplayX'),
  doubleField('DisplayY', 'DisplayY'),
  doubleField('Xmin', 'Xmin'),
  doubleField('Xmax', 'Xmax'),
  doubleField('Ymin', 'Ymin'),
  doubleField('Ymax', 'Ymax'),
];

/** The GeocodeServer resource: what clients read to learn the fields and the batch size. */
export function geocodeServiceJson(info: LocatorInfo) {
  return {
    currentVersion: 11.3,
    serviceDescription: `${info.serviceName}: postal codes, cities, regions and countries from public gazetteers, and address points loaded by administrators.`,
    addressFields: ADDRESS_FIELDS,
    categories: [
      {
        name: 'Address',
        categories: [{ name: 'Point Address' }, { name: 'Street Address' }, { name: 'Street Name' }],
      },
      { name: 'Postal', categories: [{ name: 'Primary Postal' }] },
      {
        name: 'Populated Place',
        categories: [{ name: 'City' }, { name: 'State or Province' }, { name: 'Country' }],
      },
    ],
    singleLineAddressField: stringField('SingleLine', 'Single Line Input', 200),
    candidateFields: CANDIDATE_FIELDS,
    spatialReference: { wkid: 4326, latestWkid: 4326 },
    locatorProperties: {
      MaxBatchSize: info.maxBatchSize,
      SuggestedBatchSize: info.suggestedBatchSize,
      LoadBalancerTimeOut: 60,
      isAGOWorldLocator: false,
      WriteXYCoordFields: 'TRUE',
      SupportsBatchOutFields: 'true',
      MinimumMatchScore: String(info.minMatchScore),
      MinimumCandidateScore: String(info.minCandidateScore),
    },
    countries: info.countries,
    capabilities: 'Geocode',
  };
}
