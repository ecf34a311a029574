/**
 * The app's CORS policy, in one place: any origin, echoed back, with credentials allowed (map clients send
 * tokens from pages on other origins). app.ts's cors() middleware applies it; the lean tile path, which
 * answers ahead of the middleware, writes the same headers with `simpleCorsHeaders`.
 */
export const CORS_OPTIONS = {
  origin: (origin: string): string => origin || '*',
  credentials: true,
  maxAge: 86400,
};

/** The headers cors() adds to the answer of a simple (not preflight) request, as name, value pairs. */
export function simpleCorsHeaders(origin: string | undefined): string[] {
  return [
    'Access-Control-Allow-Origin',
    CORS_OPTIONS.origin(origin ?? ''),
    'Access-Control-Allow-Credentials',
    String(CORS_OPTIONS.credentials),
    'Vary',
    'Origin',
  ];
}
