import type { ItemRow } from '../../db/repositories/items.js';

/** The item resource as content/items/{id}, search results and user content return it. */
export function itemJson(item: ItemRow, portalId: string, itemControl?: 'admin' | 'update') {
  return {
    id: item.id,
    owner: item.owner,
    orgId: portalId,
    created: item.created,
    modified: item.modified,
    guid: null,
    name: item.name,
    title: item.title,
    type: item.type,
    typeKeywords: item.typeKeywords,
    description: item.description,
    tags: item.tags,
    snippet: item.snippet,
    thumbnail: item.thumbnail,
    documentation: null,
    extent: item.extent ?? [],
    categories: item.categories,
    spatialReference: item.spatialReference,
    accessInformation: item.accessInformation,
    licenseInfo: item.licenseInfo,
    culture: item.culture,
    properties: item.properties,
    url: item.url,
    proxyFilter: null,
    access: item.access,
    // Services and other url items have no stored data; the portal reports -1 for them.
    size: item.dataKey ? item.dataSize : item.url ? -1 : 0,
    appCategories: [],
    industries: [],
    languages: [],
    largeThumbnail: null,
    banner: null,
    screenshots: [],
    listed: false,
    ownerFolder: item.folderId,
    protected: item.protected,
    commentsEnabled: false,
    numComments: 0,
    numRatings: 0,
    avgRating: 0,
    numViews: 0,
    ...(itemControl ? { itemControl } : {}),
    scoreCompleteness: 0,
    groupDesignations: null,
  };
}

/** Keywords the portal gives items of common types when the client sends none. */
const TYPE_KEYWORDS: Record<string, string[]> = {
  csv: ['CSV'],
  'microsoft excel': ['Data', 'Document', 'Microsoft Excel'],
  shapefile: ['ArcGIS', 'Data', 'Layer Package', 'Shapefile'],
  geojson: ['Coordinates Type', 'CRS', 'Feature', 'FeatureCollection', 'GeoJSON', 'Geometry'],
  'file geodatabase': ['File Geodatabase'],
  'web map': ['Web Map', 'Explorer Web Map', 'Map', 'Online Map', 'ArcGIS Online'],
  'feature collection': ['Feature Collection', 'Singlelayer'],
  'vector tile package': ['Vector Tile Package'],
  'service definition': ['Service Definition'],
};

export const defaultTypeKeywords = (type: string): string[] => TYPE_KEYWORDS[type.toLowerCase()] ?? [];
