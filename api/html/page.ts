/**
 * Server-rendered HTML for people: one layout, one escaper and one Content-Security-Policy. Every value
 * that reaches a page goes through `esc` (or `attr`), and pages load scripts and styles only from this
 * origin's /static, so the policy needs neither inline code nor any other origin.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { publicRoot } from '../urls.js';

/** Tiles, GeoJSON and the sign-in call all go to this origin; nothing inline, nothing elsewhere. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** A value as HTML text (also safe inside a double- or single-quoted attribute). */
export const esc = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** Marks HTML built here from escaped parts, so templates can tell it from text that needs escaping. */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

/** A template tag escaping every interpolated value except Html (and arrays of it). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = (x: unknown): string =>
      x instanceof Html ? x.text : Array.isArray(x) ? x.map(part).join('') : esc(x);
    out += part(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Links a person follows keep `f=html` and the token they signed in with (as the directory does). */
export function pageLink(c: Context<AppEnv>, href: string, extra: Record<string, string> = {}): string {
  const url = new URL(href, 'http://x');
  const absolute = /^https?:/.test(href);
  url.searchParams.set('f', 'html');
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  const token = c.get('params')?.get('token');
  if (token) url.searchParams.set('token', token);
  return absolute ? url.toString() : `${url.pathname}${url.search}`;
}

/** A path under the deployment's root (BASE_PATH included). */
export const rootPath = (c: Context<AppEnv>, path: string) =>
  `${new URL(publicRoot(c)).pathname.replace(/\/$/, '')}${path}`;

export interface PageParts {
  title: string;
  /** Breadcrumb: label and href (already a page link) of each ancestor. */
  crumbs?: [string, string][];
  body: Html;
  scripts?: string[];
  styles?: string[];
}

export function sendHtml(c: Context<AppEnv>, parts: PageParts, status: 200 | 400 | 404 = 200) {
  const staticPath = (p: string) => rootPath(c, `/static/${p}`);
  const styles = ['site.css', ...(parts.styles ?? [])];
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
<link rel="icon" href="data:,">
${styles.map((s) => html`<link rel="stylesheet" href="${staticPath(s)}">\n`)}${(parts.scripts ?? []).map((s) => html`<script src="${staticPath(s)}" defer></script>\n`)}</head>
<body>
<header><a href="${pageLink(c, rootPath(c, '/'))}">Geoportal</a>${(parts.crumbs ?? []).map(([label, href]) => html` › <a href="${href}">${label}</a>`)}</header>
<main>
<h1>${parts.title}</h1>
${parts.body}
</main>
</body>
</html>
`;
  return c.body(page.text, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
}
