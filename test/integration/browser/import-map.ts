/**
 * An import map for a package and everything it depends on, read from their package.json files, so a
 * browser loads the ArcGIS Maps SDK from node_modules without a bundler. Subpath exports with `*` are
 * expanded to the files that exist, since import maps have prefixes but no wildcards.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

type Exports = string | null | { [key: string]: Exports } | Exports[];

const CONDITIONS = ['browser', 'import', 'module', 'default'];

/** The file an export target resolves to for a browser's `import`. */
function target(value: Exports): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(target).find(Boolean);
  for (const c of CONDITIONS) if (c in value) return target(value[c]!);
  return undefined;
}

/** Files below `dir` (relative, posix), for expanding `*` patterns. */
function walk(dir: string, base = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const rel = base ? `${base}/${name}` : name;
    if (statSync(join(dir, name)).isDirectory()) out.push(...walk(join(dir, name), rel));
    else out.push(rel);
  }
  return out;
}

export function buildImportMap(
  modulesDir: string,
  root: string,
  urlBase = '/node_modules',
): Record<string, string> {
  const imports: Record<string, string> = {};
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const dir = join(modulesDir, name);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    queue.push(...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}));
    const url = `${urlBase}/${name}`;
    imports[`${name}/`] = `${url}/`;
    const exp: Exports | undefined = pkg.exports;
    const entries: [string, Exports][] =
      exp === undefined
        ? []
        : typeof exp === 'string' ||
            Array.isArray(exp) ||
            !Object.keys(exp ?? {}).some((k) => k.startsWith('.'))
          ? [['.', exp]]
          : Object.entries(exp as Record<string, Exports>);
    if (entries.length === 0) {
      const main = pkg.module ?? pkg.main ?? 'index.js';
      imports[name] =
        `${url}/${posix.normalize(main.endsWith('.js') || main.endsWith('.mjs') ? main : `${main}.js`)}`;
    }
    for (const [key, value] of entries) {
      const file = target(value);
      if (!file) continue;
      const spec = key === '.' ? name : `${name}/${key.slice(2)}`;
      if (!key.includes('*')) {
        imports[spec] = `${url}/${posix.normalize(file)}`;
        continue;
      }
      // "./components/*": "./dist/components/*/index.js" → one entry per existing match.
      const [before, after] = file.split('*') as [string, string];
      const fixed = posix.normalize(before).replace(/\/$/, '');
      for (const rel of walk(join(dir, fixed))) {
        const path = `${fixed}/${rel}`;
        if (!path.endsWith(posix.normalize(after).replace(/^\.\//, '')) && after !== '') continue;
        const star = after ? `${fixed}/${rel}`.slice(fixed.length + 1, path.length - after.length) : rel;
        if (!star || (after && !path.endsWith(after))) continue;
        const key2 = spec.replace('*', star);
        imports[key2] ??= `${url}/${path}`;
      }
    }
  }
  return imports;
}
