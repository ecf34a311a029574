/**
 * OGC WMTS 1.0.0 of a cached map service at `…/rest/services/Hosted/{name}/MapServer/WMTS`, as ArcGIS
 * Server lays it out: KVP (`?SERVICE=WMTS&REQUEST=GetCapabilities|GetTile`) and RESTful
 * (`/WMTS/1.0.0/WMTSCapabilities.xml`, `/WMTS/tile/1.0.0/{layer}/{style}/{set}/{level}/{row}/{col}`),
 * tiles read from the cache by the REST tile path. Matrix sets: `default028mm` (the cache's levels) and,
 * where the cache is on the standard Web Mercator scheme, `GoogleMapsCompatible`. Errors are OWS
 * ExceptionReports.
 */
import type { Context, Hono } from 'hono';
import type { TileCacheRow } from '../../db/repositories/tile-caches.js';
import type { TileCacheReader } from '../../infra/tile-cache-store.js';
import { isGeoError } from '../../lib/errors.js';
import type { Bounds } from '../../lib/geometry/types.js';
import type { CacheDefinition } from '../../lib/tiles/cache-definition.js';
import { lodOf, ORIGIN_X, ORIGIN_Y } from '../../lib/tiles/web-mercator.js';
import { escapeAttribute, escapeText } from '../../soap/xml-text.js';
import type { AppEnv } from '../env.js';
import { publicRoot } from '../urls.js';
import { projectBounds } from './map-export.js';
import type { CacheLookup } from './map-server.js';
import { answerTile, tileResponse } from './tile-serving.js';

class OwsException extends Error {
  constructor(
    readonly code: string,
    readonly status: 400 | 404,
    message: string,
    readonly locator = '',
  ) {
    super(message);
  }
}

const owsReport = (e: OwsException) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<ows:ExceptionReport xmlns:ows="http://www.opengis.net/ows/1.1" version="1.1.0"><ows:Exception exceptionCode="${e.code}"${e.locator ? ` locator="${e.locator}"` : ''}><ows:ExceptionText>${escapeText(e.message)}</ows:ExceptionText></ows:Exception></ows:ExceptionReport>`;

const GOOGLE = 'GoogleMapsCompatible';
const DEFAULT_SET = 'default028mm';
/** The OGC standardized rendering pixel size, 0.28 mm. */
const PIXEL_METERS = 0.00028;
const METERS_PER_DEGREE = 111319.49079327358;

const isWebMercator = (d: CacheDefinition) => d.wkid === 102100 || d.wkid === 3857 || d.latestWkid === 3857;
const geographic = (d: CacheDefinition) => d.wkid === 4326;

/** On the standard scheme: Web Mercator, the standard origin, 256-pixel tiles and the standard resolutions. */
function googleCompatible(d: CacheDefinition): boolean {
  const near = (a: number, b: number) => Math.abs(a - b) <= Math.abs(b) * 1e-6 + 1e-6;
  return (
    isWebMercator(d) &&
    near(d.originX, ORIGIN_X) &&
    near(d.originY, ORIGIN_Y) &&
    d.tileCols === 256 &&
    d.tileRows === 256 &&
    d.lods.every((l) => l.level <= 24 && near(l.resolution, lodOf(l.level).resolution))
  );
}

const mimeOf = (d: CacheDefinition) => (d.format === 'JPEG' ? 'image/jpeg' : 'image/png');

function matrixSets(d: CacheDefinition): string[] {
  return googleCompatible(d) ? [DEFAULT_SET, GOOGLE] : [DEFAULT_SET];
}

function tileMatrixSetXml(d: CacheDefinition, id: string): string {
  const crs = `urn:ogc:def:crs:EPSG::${d.latestWkid ?? d.wkid}`;
  const unit = geographic(d) ? METERS_PER_DEGREE : 1;
  const extent: Bounds = d.extent ?? [d.originX, -d.originY, -d.originX, d.originY];
  const corner = geographic(d) ? `${d.originY} ${d.originX}` : `${d.originX} ${d.originY}`;
  const matrices = d.lods
    .map((l) => {
      const span = l.resolution * d.tileCols;
      const width =
        isWebMercator(d) && googleCompatible(d)
          ? 2 ** l.level
          : Math.max(1, Math.ceil((extent[2] - d.originX) / span));
      const height =
        isWebMercator(d) && googleCompatible(d)
          ? 2 ** l.level
          : Math.max(1, Math.ceil((d.originY - extent[1]) / (l.resolution * d.tileRows)));
      return `<TileMatrix><ows:Identifier>${l.level}</ows:Identifier><ScaleDenominator>${(l.resolution * unit) / PIXEL_METERS}</ScaleDenominator><TopLeftCorner>${corner}</TopLeftCorner><TileWidth>${d.tileCols}</TileWidth><TileHeight>${d.tileRows}</TileHeight><MatrixWidth>${width}</MatrixWidth><MatrixHeight>${height}</MatrixHeight></TileMatrix>`;
    })
    .join('');
  const wellKnown =
    id === GOOGLE
      ? '<WellKnownScaleSet>urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible</WellKnownScaleSet>'
      : '';
  return `<TileMatrixSet><ows:Identifier>${id}</ows:Identifier><ows:SupportedCRS>${crs}</ows:SupportedCRS>${wellKnown}${matrices}</TileMatrixSet>`;
}

function capabilities(c: Context<AppEnv>, cache: TileCacheRow): string {
  const d = cache.definition;
  const base = `${publicRoot(c)}/rest/services/Hosted/${encodeURIComponent(cache.name)}/MapServer/WMTS`;
  const token = c.get('params').get('token');
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const kvp = escapeAttribute(`${base}?${token ? `token=${encodeURIComponent(token)}&` : ''}`);
  const get = (href: string, encoding: string) =>
    `<ows:Get xlink:href="${href}"><ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>${encoding}</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>`;
  const operation = (name: string, rest: string) =>
    `<ows:Operation name="${name}"><ows:DCP><ows:HTTP>${get(escapeAttribute(rest), 'RESTful')}${get(kvp, 'KVP')}</ows:HTTP></ows:DCP></ows:Operation>`;
  const sr = d.latestWkid ? { wkid: d.wkid, latestWkid: d.latestWkid } : { wkid: d.wkid };
  const extent: Bounds = d.extent ?? [d.originX, -d.originY, -d.originX, d.originY];
  const geo = projectBounds(extent, sr, { wkid: 4326 });
  const mime = mimeOf(d);
  const template = escapeAttribute(
    `${base}/tile/1.0.0/${cache.name}/{Style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}${query}`,
  );
  const sets = matrixSets(d);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.0.0">',
    `<ows:ServiceIdentification><ows:Title>${escapeText(cache.name)}</ows:Title><ows:ServiceType>OGC WMTS</ows:ServiceType><ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion></ows:ServiceIdentification>`,
    '<ows:OperationsMetadata>',
    operation('GetCapabilities', `${base}/1.0.0/WMTSCapabilities.xml${query}`),
    operation('GetTile', `${base}/tile/1.0.0/${query}`),
    '</ows:OperationsMetadata><Contents>',
    `<Layer><ows:Title>${escapeText(cache.name)}</ows:Title><ows:WGS84BoundingBox crs="urn:ogc:def:crs:OGC:2:84"><ows:LowerCorner>${geo[0]} ${geo[1]}</ows:LowerCorner><ows:UpperCorner>${geo[2]} ${geo[3]}</ows:UpperCorner></ows:WGS84BoundingBox>`,
    `<ows:Identifier>${escapeText(cache.name)}</ows:Identifier><Style isDefault="true"><ows:Title>Default Style</ows:Title><ows:Identifier>default</ows:Identifier></Style><Format>${mime}</Format>`,
    ...sets.map((s) => `<TileMatrixSetLink><TileMatrixSet>${s}</TileMatrixSet></TileMatrixSetLink>`),
    `<ResourceURL format="${mime}" resourceType="tile" template="${template}"/></Layer>`,
    ...sets.map((s) => tileMatrixSetXml(d, s)),
    `</Contents><ServiceMetadataURL xlink:href="${escapeAttribute(`${base}/1.0.0/WMTSCapabilities.xml${query}`)}"/></Capabilities>`,
  ].join('');
}

interface TileAsk {
  layer: string;
  style: string;
  set: string;
  level: string;
  row: string;
  col: string;
}

function checkTileAsk(cache: TileCacheRow, ask: TileAsk): void {
  if (ask.layer.toLowerCase() !== cache.name.toLowerCase())
    throw new OwsException(
      'InvalidParameterValue',
      400,
      `Layer '${ask.layer}' is not offered; the layer is '${cache.name}'.`,
      'LAYER',
    );
  if (ask.style && ask.style.toLowerCase() !== 'default')
    throw new OwsException(
      'InvalidParameterValue',
      400,
      `Style '${ask.style}' is not offered; use 'default'.`,
      'STYLE',
    );
  if (!matrixSets(cache.definition).includes(ask.set))
    throw new OwsException(
      'InvalidParameterValue',
      400,
      `TileMatrixSet '${ask.set}' is not offered; use ${matrixSets(cache.definition).join(' or ')}.`,
      'TILEMATRIXSET',
    );
  if (!cache.definition.lods.some((l) => String(l.level) === ask.level))
    throw new OwsException(
      'InvalidParameterValue',
      400,
      `TileMatrix '${ask.level}' is not in ${ask.set}.`,
      'TILEMATRIX',
    );
  for (const [value, locator] of [
    [ask.row, 'TILEROW'],
    [ask.col, 'TILECOL'],
  ] as const)
    if (!/^\d+$/.test(value))
      throw new OwsException('TileOutOfRange', 400, `${locator} must be a non-negative integer.`, locator);
}

export function mountWmtsRoutes(
  router: Hono<AppEnv>,
  base: string,
  cacheNamed: CacheLookup,
  readerOf: (c: Context<AppEnv>) => TileCacheReader,
) {
  const answer = async (
    c: Context<AppEnv>,
    work: (found: Awaited<ReturnType<CacheLookup>>) => Promise<Response>,
  ) => {
    try {
      return await work(await cacheNamed(c, 'MapServer'));
    } catch (e) {
      const ows =
        e instanceof OwsException
          ? e
          : isGeoError(e) && e.code < 500
            ? new OwsException(
                e.code === 404 ? 'InvalidParameterValue' : 'NoApplicableCode',
                400,
                [e.message, ...e.details].join(' '),
              )
            : undefined;
      if (!ows) throw e;
      return c.body(owsReport(ows), ows.status, { 'Content-Type': 'application/xml' });
    }
  };
  const capabilitiesOf = (c: Context<AppEnv>) =>
    answer(c, async ({ cache }) =>
      c.body(capabilities(c, cache), 200, { 'Content-Type': 'application/xml' }),
    );
  const tile = (c: Context<AppEnv>, ask: TileAsk) =>
    answer(c, async (found) => {
      checkTileAsk(found.cache, ask);
      const res = await answerTile(readerOf(c), found, {
        level: ask.level,
        row: ask.row,
        col: ask.col,
        ifNoneMatch: c.req.header('if-none-match'),
        vector: false,
      });
      if (res.status === 404)
        throw new OwsException('TileOutOfRange', 404, res.error.details.join(' '), 'TILEROW');
      return tileResponse(res);
    });

  router.get(`${base}/WMTS/1.0.0/WMTSCapabilities.xml`, capabilitiesOf);
  router.get(`${base}/WMTS/tile/1.0.0/:layer/:style/:set/:level/:row/:col`, (c) =>
    tile(c, {
      layer: c.req.param('layer'),
      style: c.req.param('style'),
      set: c.req.param('set'),
      level: c.req.param('level'),
      row: c.req.param('row'),
      col: c.req.param('col').replace(/\.(png|jpe?g)$/i, ''),
    }),
  );
  router.get(`${base}/WMTS`, (c) => {
    const p = c.get('params');
    const request = (p.get('request') ?? '').toLowerCase();
    if ((p.get('service') ?? 'WMTS').toUpperCase() !== 'WMTS')
      return answer(c, async () => {
        throw new OwsException('InvalidParameterValue', 400, 'SERVICE must be WMTS.', 'SERVICE');
      });
    if (request === 'getcapabilities') return capabilitiesOf(c);
    if (request === 'gettile')
      return tile(c, {
        layer: p.get('layer') ?? '',
        style: p.get('style') ?? '',
        set: p.get('tilematrixset') ?? '',
        level: p.get('tilematrix') ?? '',
        row: p.get('tilerow') ?? '',
        col: p.get('tilecol') ?? '',
      });
    return answer(c, async () => {
      throw new OwsException(
        'OperationNotSupported',
        400,
        'REQUEST must be GetCapabilities or GetTile.',
        'REQUEST',
      );
    });
  });
}
