#!/usr/bin/env node
// Installs what the product needs on a fresh machine, once: npm dependencies, then the Temporal CLI and the
// MinIO server built from the Go module proxy into a cache directory outside the repo, reused next time.
// Plain Node with no dependencies, because it runs before `npm ci`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = process.env.GEOPORTAL_CACHE_DIR || join(homedir(), '.cache', 'geoportal');
const toolchain = JSON.parse(readFileSync(join(root, 'infra', 'toolchain.json'), 'utf8'));
const say = (msg) => console.log(`[setup] ${msg}`);

function ensureNodeModules() {
  const lock = join(root, 'package-lock.json');
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install` rather than `npm ci`: some npm 11 releases write lock files without other platforms'
  // optional packages and then refuse them in `npm ci`; `npm install` installs the same locked versions.
  say('installing npm dependencies (npm install, from package-lock.json) ...');
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

/**
 * Debian packages the tests drive as real clients (gdal-bin's ogrinfo, GDAL's Python bindings, chromium), installed with apt-get
 * when missing. Idempotent: a package already installed costs one dpkg-query. Needs root (as the CI and
 * development machines are); without it, says what to install instead of failing half way.
 */
export function ensureAptPackages(packages) {
  const installed = (pkg) => {
    try {
      return execFileSync('dpkg-query', ['-W', `-f=\${Status}`, pkg], { encoding: 'utf8' }).includes(
        'install ok installed',
      );
    } catch {
      return false;
    }
  };
  const missing = packages.filter((pkg) => !installed(pkg));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    say(`missing Debian packages ${missing.join(' ')}: run 'apt-get install ${missing.join(' ')}' as root`);
    return;
  }
  say(`installing Debian packages ${missing.join(' ')} (apt-get, first time only) ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another install on the machine (a second checkout's setup) holds dpkg's lock for a while: wait for it.
  const waitForLock = ['-o', 'DPkg::Lock::Timeout=900'];
  const install = () =>
    execFileSync('apt-get', [...waitForLock, 'install', '-y', '--no-install-recommends', ...missing], {
      env,
      stdio: 'inherit',
    });
  try {
    install();
  } catch {
    // A fresh machine has no package lists yet.
    execFileSync('apt-get', [...waitForLock, 'update'], { env, stdio: 'inherit' });
    install();
  }
}

export function binaryPath(name) {
  const tool = toolchain[name];
  return join(cacheDir, 'bin', `${tool.binary}-${tool.version}`);
}

function goAvailable() {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function build(name) {
  const tool = toolchain[name];
  const target = binaryPath(name);
  if (existsSync(target)) return Promise.resolve(target);
  mkdirSync(dirname(target), { recursive: true });
  const gobin = mkdtempSync(join(tmpdir(), `geoportal-${name}-`));
  const started = Date.now();
  say(
    `building ${name} ${tool.version} with go install (first time only; a few minutes on 2 cores) -> ${target}`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['install', `${tool.module}@${tool.version}`], {
      env: { ...process.env, GOBIN: gobin, GOFLAGS: '-trimpath', CGO_ENABLED: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const progress = setInterval(
      () => say(`still building ${name} (${Math.round((Date.now() - started) / 1000)} s) ...`),
      30_000,
    );
    child.on('close', (code) => {
      clearInterval(progress);
      if (code !== 0) {
        rmSync(gobin, { recursive: true, force: true });
        reject(new Error(`go install ${tool.module}@${tool.version} failed:\n${stderr.slice(-4000)}`));
        return;
      }
      renameSync(join(gobin, tool.binary), target);
      rmSync(gobin, { recursive: true, force: true });
      say(`built ${name} in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve(target);
    });
  });
}

function commandExists(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// The tests drive GDAL (gdalinfo, gdal_translate) against our WMS, WMTS and ArcGIS REST export, as
// desktop GIS does; Debian's gdal-bin is installed once with apt-get when missing and we are root.
function ensureGdal() {
  if (commandExists('gdal_translate')) return;
  if (process.getuid?.() !== 0 || !commandExists('apt-get')) {
    say(
      'gdal-bin is missing and cannot be installed here (not root or no apt-get): the GDAL tests will fail',
    );
    return;
  }
  say('installing gdal-bin with apt-get (first time only) ...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'gdal-bin'], {
    stdio: 'inherit',
    env,
  });
}

async function main() {
  ensureNodeModules();
  ensureGdal();
  const missing = Object.keys(toolchain).filter((name) => !existsSync(binaryPath(name)));
  if (missing.length > 0 && !goAvailable()) {
    console.error(
      `[setup] Go is needed once to build ${missing.join(' and ')} (https://go.dev/dl, 1.24 or newer), ` +
        `or set GEOPORTAL_CACHE_DIR to a directory holding prebuilt ${missing.map((n) => binaryPath(n)).join(', ')}.`,
    );
    process.exit(1);
  }
  await Promise.all(Object.keys(toolchain).map(build));
  // The real clients of the integration tests: GDAL's ogrinfo and Python bindings, a headless Chromium.
  if (process.argv.includes('--test-clients'))
    ensureAptPackages(['gdal-bin', 'python3-gdal', 'sqlite3', 'chromium']);
  for (const name of Object.keys(toolchain)) say(`${name}: ${binaryPath(name)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`[setup] ${e.message}`);
    process.exit(1);
  });
}
