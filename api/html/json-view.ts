/**
 * Any JSON answer as HTML, the fallback view of every resource: nested tables of keys and values,
 * with URLs of this deployment turned into page links.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { publicRoot } from '../urls.js';
import { Html, html, pageLink } from './page.js';

const MAX_DEPTH = 4;
const MAX_ITEMS = 200;

function scalar(c: Context<AppEnv>, value: unknown): Html {
  if (value === null || value === undefined) return html`<span class="null">null</span>`;
  if (typeof value === 'string' && value.startsWith(publicRoot(c)) && !/\s/.test(value))
    return html`<a href="${pageLink(c, value)}">${value}</a>`;
  return html`${String(value)}`;
}

export function jsonView(c: Context<AppEnv>, value: unknown, depth = 0): Html {
  if (value === null || typeof value !== 'object') return scalar(c, value);
  if (depth >= MAX_DEPTH) return html`<code>${JSON.stringify(value).slice(0, 500)}</code>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html`<span class="null">[]</span>`;
    if (value.every((v) => v === null || typeof v !== 'object'))
      return html`${value.slice(0, MAX_ITEMS).map((v, i) => html`${i ? ', ' : ''}${scalar(c, v)}`)}`;
    const shown = value.slice(0, MAX_ITEMS);
    return html`<ol start="0">${shown.map((v) => html`<li>${jsonView(c, v, depth + 1)}</li>`)}</ol>${
      value.length > MAX_ITEMS ? html`<p>… ${value.length - MAX_ITEMS} more</p>` : new Html('')
    }`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return html`<span class="null">{}</span>`;
  return html`<table class="props">${entries.map(
    ([k, v]) => html`<tr><th>${k}</th><td>${jsonView(c, v, depth + 1)}</td></tr>`,
  )}</table>`;
}
