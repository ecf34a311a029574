// The map viewer: Leaflet over one service of this server. Everything comes from this origin; the
// token of the page travels on every request; attributes reach the popup as text, never as HTML.
/* global L */
const mapElement = document.getElementById('map');
const status = document.getElementById('viewer-status');
const { service, type, token, tiles } = mapElement.dataset;
const MAX_FEATURES = 20000;

const withParams = (url, params) => {
  const u = new URL(url, window.location.href);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  if (token) u.searchParams.set('token', token);
  return u.toString();
};

async function getJson(url, params) {
  const res = await fetch(withParams(url, params));
  const body = await res.json();
  if (body.error) throw new Error(`${body.error.code}: ${body.error.message}`);
  return body;
}

/** An Esri envelope (Web Mercator or WGS84) as Leaflet bounds. */
function boundsOf(e) {
  if (!e || typeof e.xmin !== 'number') return null;
  const wkid = e.spatialReference?.latestWkid ?? e.spatialReference?.wkid;
  if (wkid === 4326) return L.latLngBounds([e.ymin, e.xmin], [e.ymax, e.xmax]);
  if (wkid !== 3857 && wkid !== 102100) return null;
  const sw = L.CRS.EPSG3857.unproject(L.point(e.xmin, e.ymin));
  const ne = L.CRS.EPSG3857.unproject(L.point(e.xmax, e.ymax));
  return L.latLngBounds(sw, ne);
}

async function addTiles(map, url) {
  const info = await getJson(url, { f: 'json' });
  const lods = info.tileInfo?.lods ?? [];
  const layer = L.tileLayer(
    withParams(`${url}/tile/{z}/{y}/{x}`, {}).replace(/%7B/g, '{').replace(/%7D/g, '}'),
    {
      maxZoom: lods.length ? lods[lods.length - 1].level : 22,
      minZoom: lods.length ? lods[0].level : 0,
      attribution: info.copyrightText ?? '',
    },
  );
  layer.addTo(map);
  return { layer, bounds: boundsOf(info.fullExtent) ?? boundsOf(info.initialExtent) };
}

function popupOf(properties) {
  const table = document.createElement('table');
  table.className = 'props';
  for (const [key, value] of Object.entries(properties ?? {})) {
    const row = table.insertRow();
    const th = document.createElement('th');
    th.textContent = key;
    row.appendChild(th);
    row.insertCell().textContent = value === null ? '' : String(value);
  }
  return table;
}

async function featuresOf(url) {
  const features = [];
  for (let offset = 0; features.length < MAX_FEATURES; ) {
    const page = await getJson(`${url}/query`, {
      where: '1=1',
      outFields: '*',
      f: 'geojson',
      resultOffset: String(offset),
      orderByFields: 'OBJECTID',
    });
    features.push(...page.features);
    if (!page.properties?.exceededTransferLimit || page.features.length === 0) break;
    offset += page.features.length;
  }
  return features;
}

async function addFeatures(map, url) {
  const info = await getJson(url, { f: 'json' });
  const overlays = {};
  let drawn = 0;
  let bounds = boundsOf(info.fullExtent);
  for (const entry of info.layers ?? []) {
    const features = await featuresOf(`${url}/${entry.id}`);
    const layer = L.geoJSON(
      { type: 'FeatureCollection', features },
      {
        pointToLayer: (_feature, latlng) =>
          L.circleMarker(latlng, { radius: 6, weight: 1, color: '#1d3a5f', fillOpacity: 0.7 }),
        style: { color: '#c0392b', weight: 2, fillOpacity: 0.25 },
        onEachFeature: (feature, l) => l.bindPopup(() => popupOf(feature.properties)),
      },
    ).addTo(map);
    overlays[entry.name] = layer;
    drawn += features.length;
    if (features.length) bounds = bounds ? bounds.extend(layer.getBounds()) : layer.getBounds();
  }
  L.control.layers({}, overlays).addTo(map);
  return { drawn, bounds };
}

async function main() {
  const map = L.map(mapElement, { preferCanvas: false });
  map.setView([0, 0], 1);
  let bounds = null;
  let drawn = 0;
  if (type === 'MapServer') bounds = (await addTiles(map, service)).bounds;
  else {
    if (tiles) await addTiles(map, tiles);
    ({ drawn, bounds } = await addFeatures(map, service));
  }
  if (bounds?.isValid()) map.fitBounds(bounds, { maxZoom: 16 });
  mapElement.dataset.features = String(drawn);
  mapElement.dataset.ready = 'true';
  status.textContent = type === 'MapServer' ? 'Tiles loaded.' : `${drawn} features drawn.`;
}

main().catch((e) => {
  mapElement.dataset.ready = 'error';
  status.textContent = `Could not load the map: ${e.message}`;
  status.className = 'error';
});
