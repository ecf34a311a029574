/**
 * `…/FeatureServer/{layer}/query?f=html`: the query form of the services directory. Submitting it runs
 * the layer query with the same parameters as `f=json` and shows the answer under the form.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { jsonView } from './json-view.js';
import { Html, html, sendHtml } from './page.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, only to be shown
type Json = Record<string, any>;

const TEXT_FIELDS = [
  'where',
  'objectIds',
  'geometry',
  'inSR',
  'outFields',
  'orderByFields',
  'groupByFieldsForStatistics',
  'outStatistics',
  'resultOffset',
  'resultRecordCount',
  'outSR',
];
const CHOICES: Record<string, string[]> = {
  geometryType: [
    '',
    'esriGeometryEnvelope',
    'esriGeometryPoint',
    'esriGeometryPolyline',
    'esriGeometryPolygon',
    'esriGeometryMultipoint',
  ],
  spatialRel: [
    '',
    'esriSpatialRelIntersects',
    'esriSpatialRelContains',
    'esriSpatialRelWithin',
    'esriSpatialRelEnvelopeIntersects',
    'esriSpatialRelCrosses',
    'esriSpatialRelOverlaps',
    'esriSpatialRelTouches',
  ],
  returnGeometry: ['true', 'false'],
  returnCountOnly: ['false', 'true'],
  returnIdsOnly: ['false', 'true'],
  returnDistinctValues: ['false', 'true'],
};

/**
 * The query's parameters: everything filled in but the page's own f and token, including parameters the
 * form has no field for (a URL may carry any of the layer query's), so none is dropped.
 */
export function submittedQuery(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).filter(([k, v]) => k !== 'f' && k !== 'token' && v !== ''),
  );
}

function resultView(c: Context<AppEnv>, result: Json): Html {
  if (result.error) {
    const e = result.error as Json;
    return html`<p class="error" id="query-error">${e.message}</p>${((e.details ?? []) as string[]).map((d) => html`<p>${d}</p>`)}`;
  }
  if (Array.isArray(result.features)) {
    const features = result.features as Json[];
    const names: string[] =
      (result.fields as Json[] | undefined)?.map((f) => String(f.name)) ??
      Object.keys(features[0]?.attributes ?? {});
    return html`<p id="query-count">Features: ${features.length}${result.exceededTransferLimit ? ' (more exist: page with resultOffset)' : ''}</p>
<table class="grid" id="query-results"><tr>${names.map((n) => html`<th>${n}</th>`)}${result.geometryType ? html`<th>Geometry</th>` : new Html('')}</tr>${features.map(
      (f) =>
        html`<tr>${names.map((n) => html`<td>${f.attributes?.[n] ?? ''}</td>`)}${result.geometryType ? html`<td><code>${JSON.stringify(f.geometry ?? null).slice(0, 200)}</code></td>` : new Html('')}</tr>`,
    )}</table>`;
  }
  if (typeof result.count === 'number') return html`<p id="query-count">Count: ${result.count}</p>`;
  return jsonView(c, result);
}

export function sendQueryPage(
  c: Context<AppEnv>,
  layerName: string,
  submitted: Record<string, string>,
  result: unknown,
) {
  const value = (name: string) => submitted[name.toLowerCase()] ?? '';
  const token = c.get('params').get('token');
  const form = html`<form class="query" method="get">
<input type="hidden" name="f" value="html">${token ? html`<input type="hidden" name="token" value="${token}">` : new Html('')}
${TEXT_FIELDS.map((n) =>
  n === 'where' || n === 'geometry' || n === 'outStatistics'
    ? html`<label>${n} <textarea name="${n}" rows="2">${value(n)}</textarea></label>`
    : html`<label>${n} <input type="text" name="${n}" value="${value(n)}"></label>`,
)}${Object.entries(CHOICES).map(
  ([n, options]) =>
    html`<label>${n} <select name="${n}">${options.map((o) => html`<option${o === value(n) ? new Html(' selected') : new Html('')}>${o}</option>`)}</select></label>`,
)}
<button type="submit">Query (GET)</button>
</form>`;
  return sendHtml(c, {
    title: `Query: ${layerName}`,
    body: html`${form}${result === undefined ? new Html('') : html`<h2>Result</h2>${resultView(c, result as Json)}`}`,
  });
}
