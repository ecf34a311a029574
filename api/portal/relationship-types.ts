/**
 * The catalogue of item relationship types: which item types may be origin and destination, and who must
 * own which end. Only types whose rules the reference states are here; '*' means any item type.
 */
import { badRequest, forbidden } from '../../lib/errors.js';

export type OwnershipRule = 'mustOwnAllItems' | 'mustOwnOriginItem' | 'mustOwnDestinationItem';

export interface RelationshipType {
  name: string;
  origin: readonly string[] | '*';
  destination: readonly string[] | '*';
  ownership?: OwnershipRule;
  /** Deleting the origin deletes the destination too (attachments, app configurations, code). */
  compositeDelete?: true;
  /** Sharing or unsharing the origin does the same to the destination. */
  compositeShare?: true;
  /** When the relationship is added, the destination takes the origin's sharing. */
  copyOriginShareOnAdd?: true;
}

const DOCUMENTS = [
  'Microsoft Word',
  'Microsoft Excel',
  'Microsoft Powerpoint',
  'PDF',
  'Image',
  'Visio Document',
];
const AREA_PACKAGES = ['Map Package', 'Tile Package', 'SQLite Geodatabase', 'Vector Tile Package'];
const SERVICE_DATA = [
  'Service Definition',
  'CSV',
  'Shapefile',
  'Feature Service',
  'Tile Package',
  'Feature Collection',
  'File Geodatabase',
  'GeoJson',
  'GeoPackage',
  'Scene Package',
  'Vector Tile Package',
  'SQLite Geodatabase',
  'Microsoft Excel',
  'Compact Tile Package',
  'Image Collection',
];

const TYPES: RelationshipType[] = [
  {
    name: 'Map2Service',
    origin: ['Web Map'],
    destination: ['Map Service', 'Feature Service', 'Image Service'],
  },
  {
    name: 'WMA2Code',
    origin: ['Web Mapping Application'],
    destination: ['Code Attachment'],
    compositeDelete: true,
    compositeShare: true,
    copyOriginShareOnAdd: true,
  },
  { name: 'Map2FeatureCollection', origin: ['Web Map'], destination: ['Feature Collection'] },
  {
    name: 'MobileApp2Code',
    origin: ['Mobile Application'],
    destination: ['Code Attachment'],
    compositeDelete: true,
    compositeShare: true,
    copyOriginShareOnAdd: true,
  },
  {
    name: 'Service2Data',
    origin: ['Feature Service', 'Map Service', 'Vector Tile Service'],
    destination: SERVICE_DATA,
    ownership: 'mustOwnAllItems',
  },
  {
    name: 'Service2Service',
    origin: ['Feature Service'],
    destination: ['Map Service', 'Feature Service'],
    ownership: 'mustOwnAllItems',
  },
  {
    name: 'Map2AppConfig',
    compositeDelete: true,
    origin: ['Web Map'],
    destination: ['Application Configuration'],
    ownership: 'mustOwnAllItems',
    compositeShare: true,
    copyOriginShareOnAdd: true,
  },
  {
    name: 'Map2IndoorsConfig',
    compositeDelete: true,
    origin: ['Web Map'],
    destination: ['Indoors Map Configuration'],
    ownership: 'mustOwnAllItems',
    compositeShare: true,
    copyOriginShareOnAdd: true,
  },
  {
    name: 'Item2Attachment',
    origin: '*',
    destination: DOCUMENTS,
    ownership: 'mustOwnAllItems',
    compositeDelete: true,
    compositeShare: true,
  },
  { name: 'Item2Report', origin: '*', destination: DOCUMENTS },
  {
    name: 'Listed2Provisioned',
    origin: '*',
    destination: '*',
    ownership: 'mustOwnAllItems',
    compositeDelete: true,
  },
  {
    name: 'Style2Style',
    origin: ['Vector Tile Service'],
    destination: ['Vector Tile Service', 'Style'],
    ownership: 'mustOwnDestinationItem',
  },
  {
    name: 'Service2Style',
    origin: ['Vector Tile Service', 'Style'],
    destination: ['Vector Tile Service', 'Style'],
    ownership: 'mustOwnDestinationItem',
  },
  {
    name: 'Survey2Service',
    origin: ['Form'],
    destination: ['Feature Service'],
    ownership: 'mustOwnOriginItem',
  },
  {
    name: 'Survey2Data',
    origin: ['Form'],
    destination: [
      'Feature Service',
      'Web Map',
      'Map Package',
      'Tile Package',
      'Vector Tile Package',
      'Microsoft Word',
    ],
    ownership: 'mustOwnOriginItem',
  },
  { name: 'Service2Route', origin: ['Feature Service'], destination: ['Route Layer'] },
  { name: 'Area2Package', origin: ['Map Area'], destination: AREA_PACKAGES, ownership: 'mustOwnAllItems' },
  { name: 'Map2Area', origin: ['Web Map'], destination: ['Map Area'], ownership: 'mustOwnAllItems' },
  {
    name: 'Service2Layer',
    origin: ['Feature Service'],
    destination: ['Feature Service'],
    ownership: 'mustOwnAllItems',
  },
  {
    name: 'Area2CustomPackage',
    origin: ['Map Area'],
    destination: AREA_PACKAGES,
    ownership: 'mustOwnAllItems',
  },
  { name: 'TrackView2Map', origin: ['Feature Service'], destination: ['Web Map'] },
  { name: 'Theme2Story', origin: ['StoryMap Theme'], destination: ['StoryMap'] },
  { name: 'WebStyle2DesktopStyle', origin: ['Style'], destination: ['DesktopStyle'] },
  { name: 'Solution2Item', origin: ['Solution'], destination: '*' },
  { name: 'APIKey2Item', origin: ['API Key'], destination: '*', ownership: 'mustOwnAllItems' },
  { name: 'Mission2Item', origin: ['Mission'], destination: '*' },
  { name: 'Notebook2WebTool', origin: ['Notebook'], destination: ['Geoprocessing Service'] },
];

const BY_NAME = new Map(TYPES.map((t) => [t.name.toLowerCase(), t]));

/** Names of the types whose destination goes with its origin when the origin is deleted. */
export const COMPOSITE_DELETE_TYPES: ReadonlySet<string> = new Set(
  TYPES.filter((t) => t.compositeDelete).map((t) => t.name),
);

/** Names of the types whose destination is shared and unshared with its origin. */
export const COMPOSITE_SHARE_TYPES: ReadonlySet<string> = new Set(
  TYPES.filter((t) => t.compositeShare).map((t) => t.name),
);

export const RELATIONSHIP_TYPE_NAMES: readonly string[] = TYPES.map((t) => t.name);

/** The type named (any letter case), or a 400 naming the unknown value. */
export function relationshipType(name: string): RelationshipType {
  const found = BY_NAME.get(name.trim().toLowerCase());
  if (!found)
    throw badRequest('Invalid relationship type.', [`'${name}' is not a defined relationship type.`]);
  return found;
}

/** Parses relationshipType / relationshipTypes: a comma-separated list of defined type names. */
export function relationshipTypeList(raw: string | undefined): RelationshipType[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(relationshipType);
}

const accepts = (allowed: readonly string[] | '*', itemType: string) =>
  allowed === '*' || allowed.some((t) => t.toLowerCase() === itemType.toLowerCase());

export interface RelationshipEnds {
  origin: { type: string; owner: string };
  destination: { type: string; owner: string };
}

/** Checks item types and ownership for a new relationship created by `creator`. */
export function assertRelationshipAllowed(
  type: RelationshipType,
  ends: RelationshipEnds,
  creator: string,
): void {
  if (!accepts(type.origin, ends.origin.type)) {
    throw badRequest('Invalid relationship.', [
      `${type.name} does not allow an origin item of type '${ends.origin.type}'.`,
    ]);
  }
  if (!accepts(type.destination, ends.destination.type)) {
    throw badRequest('Invalid relationship.', [
      `${type.name} does not allow a destination item of type '${ends.destination.type}'.`,
    ]);
  }
  const ownsOrigin = ends.origin.owner === creator;
  const ownsDestination = ends.destination.owner === creator;
  const needOrigin = type.ownership === 'mustOwnAllItems' || type.ownership === 'mustOwnOriginItem';
  const needDestination = type.ownership === 'mustOwnAllItems' || type.ownership === 'mustOwnDestinationItem';
  if ((needOrigin && !ownsOrigin) || (needDestination && !ownsDestination)) {
    const which =
      type.ownership === 'mustOwnAllItems'
        ? 'both items'
        : needOrigin
          ? 'the origin item'
          : 'the destination item';
    throw forbidden(`${type.name} requires the user who adds it to own ${which}.`);
  }
}
