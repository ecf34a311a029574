import { badRequest } from '../errors.js';
import { MAX_CONFIG_BYTES, parseConfCdi, parseConfXml, parseTilePackageRoot } from './cache-config-parser.js';
import type { CacheDefinition } from './cache-definition.js';
import { BUNDLE_DIM, decodeBundle, parseBundlePath } from './compact-bundle.js';
import { parseBundlx, v1BundleTiles } from './compact-bundle-v1.js';
import { parseExplodedTilePath } from './exploded-paths.js';

/**
 * The layout of uploaded tile packages, worked out from the zip's entry names alone:
 * - .tpk: `v101/<Map>/conf.xml`, `conf.cdi`, `_alllayers/Lnn/RrrrrCcccc.bundle` + `.bundlx` (Compact V1);
 * - .tpkx: `root.json`, `tile/Lnn/RrrrrCcccc.bundle` (Compact V2);
 * - .vtpk: `p12/root.json`, `p12/tile/Lnn/*.bundle` (gzip PBF tiles), `p12/resources/…` (styles, sprites, fonts).
 * Reading the zip is the caller's: it passes a PackageReader over the archive.
 */
export type TilePackageKind = 'tpk' | 'tpkx' | 'vtpk';

export interface PackageBundle {
  level: number;
  row0: number;
  col0: number;
  bundlePath: string;
  /** V1 only: the sibling index. */
  bundlxPath?: string;
}

export interface PackageExplodedTile {
  level: number;
  row: number;
  col: number;
  path: string;
}

export interface TilePackageLayout {
  kind: TilePackageKind;
  /** conf.xml (tpk) or root.json (tpkx, vtpk). */
  metadataPath: string;
  confCdiPath?: string;
  itemInfoPath?: string;
  bundles: PackageBundle[];
  explodedTiles: PackageExplodedTile[];
  /** vtpk: `resources/` entries (styles, sprites, fonts, info), paths relative to `p12/`. */
  resources: string[];
  styleRootPath?: string;
}

export interface PackageReader {
  read(path: string): Promise<Uint8Array>;
}

export interface PackageTile {
  level: number;
  row: number;
  col: number;
  bytes: Uint8Array;
}

const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/') + 1) : '');
const norm = (p: string): string => p.replace(/\\/g, '/').replace(/^\.?\//, '');

/** Works out a package's kind and the entries that matter from its entry names. */
export function describeTilePackage(entryNames: readonly string[]): TilePackageLayout {
  const names = entryNames.map(norm).filter((n) => !n.endsWith('/'));
  const byLength = (a: string, b: string): number => a.length - b.length;
  const vtpkRoot = names.filter((n) => /(^|\/)p12\/root\.json$/i.test(n)).sort(byLength)[0];
  const tpkConf = names.filter((n) => /(^|\/)conf\.xml$/i.test(n)).sort(byLength)[0];
  const tpkxRoot = names
    .filter((n) => /(^|\/)root\.json$/i.test(n) && !/resources\//i.test(n))
    .sort(byLength)[0];

  let kind: TilePackageKind;
  let metadataPath: string;
  if (vtpkRoot) [kind, metadataPath] = ['vtpk', vtpkRoot];
  else if (tpkConf) [kind, metadataPath] = ['tpk', tpkConf];
  else if (tpkxRoot) [kind, metadataPath] = ['tpkx', tpkxRoot];
  else throw badRequest('Not a tile package: no conf.xml or root.json found.');

  const base = dirOf(metadataPath);
  const inBase = names.filter((n) => n.startsWith(base));
  const present = new Set(inBase);
  const bundles: PackageBundle[] = [];
  const explodedTiles: PackageExplodedTile[] = [];
  for (const n of inBase) {
    if (/\.bundle$/i.test(n)) {
      const parsed = parseBundlePath(n);
      if (!parsed) continue;
      const bundlx = n.replace(/\.bundle$/i, '.bundlx');
      bundles.push(
        present.has(bundlx) ? { ...parsed, bundlePath: n, bundlxPath: bundlx } : { ...parsed, bundlePath: n },
      );
    } else {
      const tile = parseExplodedTilePath(n);
      if (tile) explodedTiles.push({ level: tile.level, row: tile.row, col: tile.col, path: n });
    }
  }
  bundles.sort((a, b) => a.level - b.level || a.row0 - b.row0 || a.col0 - b.col0);

  const layout: TilePackageLayout = { kind, metadataPath, bundles, explodedTiles, resources: [] };
  if (kind === 'tpk' && present.has(`${base}conf.cdi`)) layout.confCdiPath = `${base}conf.cdi`;
  const itemInfo = names.find(
    (n) => /(^|\/)esriinfo\/iteminfo\.xml$/i.test(n) || /(^|\/)iteminfo\.json$/i.test(n),
  );
  if (itemInfo) layout.itemInfoPath = itemInfo;
  if (kind === 'vtpk') {
    layout.resources = inBase
      .filter((n) => n.startsWith(`${base}resources/`))
      .map((n) => n.slice(base.length));
    const style = `${base}resources/styles/root.json`;
    if (present.has(style)) layout.styleRootPath = style;
  }
  return layout;
}

/** A metadata file of the package as text, refused past MAX_CONFIG_BYTES (real ones are kilobytes). */
async function readConfigFile(reader: PackageReader, path: string): Promise<string> {
  const bytes = await reader.read(path);
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw badRequest(`${path.slice(path.lastIndexOf('/') + 1)} is larger than ${MAX_CONFIG_BYTES} bytes.`);
  }
  return new TextDecoder().decode(bytes);
}

/** The package's cache definition from conf.xml (+ conf.cdi) or root.json. */
export async function readPackageDefinition(
  layout: TilePackageLayout,
  reader: PackageReader,
): Promise<CacheDefinition> {
  const text = await readConfigFile(reader, layout.metadataPath);
  if (layout.kind !== 'tpk') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw badRequest(`root.json is not valid JSON: ${(e as Error).message}`);
    }
    return parseTilePackageRoot(json);
  }
  const def = parseConfXml(text);
  if (layout.confCdiPath) {
    def.extent = parseConfCdi(await readConfigFile(reader, layout.confCdiPath));
  }
  return def;
}

/** Every tile of the package, one bundle in memory at a time, in level/bundle order. */
export async function* packageTiles(
  layout: TilePackageLayout,
  reader: PackageReader,
): AsyncGenerator<PackageTile> {
  for (const b of layout.bundles) {
    const bundle = await reader.read(b.bundlePath);
    if (b.bundlxPath) {
      const offsets = parseBundlx(await reader.read(b.bundlxPath));
      for (const t of v1BundleTiles(bundle, offsets)) {
        yield { level: b.level, row: b.row0 + t.rowInBundle, col: b.col0 + t.colInBundle, bytes: t.bytes };
      }
    } else {
      for (const [slot, bytes] of decodeBundle(bundle)) {
        const row = b.row0 + Math.floor(slot / BUNDLE_DIM);
        const col = b.col0 + (slot % BUNDLE_DIM);
        yield { level: b.level, row, col, bytes };
      }
    }
  }
  for (const t of layout.explodedTiles)
    yield { level: t.level, row: t.row, col: t.col, bytes: await reader.read(t.path) };
}
