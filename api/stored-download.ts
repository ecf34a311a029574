/**
 * Headers for bytes users uploaded (item data, attachments, package resources), served from the portal's
 * own origin. Uploaded HTML, SVG, XML or script opened in a browser would run with the portal's cookies
 * and tokens at hand, so: browsers must not guess a type (`nosniff`); only types a browser shows without
 * running anything are shown inline, everything else (including types we do not know) is a download; and
 * every such response is a sandboxed document with nothing allowed to load, should a browser render it.
 */

/** Shown inline: a browser displays these without running any script in them. */
const INLINE_SAFE = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
  'text/plain',
  'text/csv',
  'application/json',
  'application/geo+json',
  'application/x-protobuf',
  'application/vnd.mapbox-vector-tile',
]);

const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;

/** The stored type as a safe header value: a well-formed `type/subtype` with its parameters, else octet-stream. */
export function servedContentType(stored: string | null | undefined): string {
  const [essence = '', ...parameters] = (stored ?? '').split(';');
  const type = essence.trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) return 'application/octet-stream';
  const charset = parameters.map((p) => p.trim()).find((p) => /^charset=[A-Za-z0-9._-]{1,40}$/i.test(p));
  return charset ? `${type}; ${charset.toLowerCase()}` : type;
}

/** Whether a browser may show bytes of this type inline on our origin. */
export function isInlineSafe(contentType: string): boolean {
  return (
    INLINE_SAFE.has(contentType.split(';')[0]!.trim().toLowerCase()) || /^(audio|video)\//i.test(contentType)
  );
}

export interface StoredBytes {
  contentType: string | null | undefined;
  /** The name to save as; also makes safe types a download when `inline` is false. */
  filename?: string | null;
  size?: number;
  /** Whether safe types are shown in the browser rather than saved (attachments are, item data is not). */
  inline: boolean;
}

export function downloadHeaders({
  contentType,
  filename,
  size,
  inline,
}: StoredBytes): Record<string, string> {
  const type = servedContentType(contentType);
  const headers: Record<string, string> = {
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
  };
  if (size !== undefined) headers['Content-Length'] = String(size);
  const disposition = inline && isInlineSafe(type) ? 'inline' : 'attachment';
  if (filename)
    headers['Content-Disposition'] = `${disposition}; filename*=UTF-8''${encodeURIComponent(filename)}`;
  else if (disposition === 'attachment') headers['Content-Disposition'] = 'attachment';
  return headers;
}
