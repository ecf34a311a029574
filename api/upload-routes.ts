/**
 * The operations that take file parts: adding and updating items (and the parts of a file uploaded in
 * parts), publish and analyze, attachments and the locator's address points. Every other operation refuses a multipart file part before storing a byte.
 */
const UPLOAD_ROUTES: RegExp[] = [
  /\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?\/addItem$/i,
  /\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?\/items\/[^/]+\/update$/i,
  /\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?\/items\/[^/]+\/addPart$/i,
  /\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?\/publish$/i,
  /\/sharing\/rest\/content\/features\/analyze$/i,
  /\/FeatureServer\/\d+\/\d+\/(addAttachment|updateAttachment)$/i,
  /\/GeocodeServer\/loadAddressPoints$/i,
];

export const acceptsFiles = (path: string): boolean => UPLOAD_ROUTES.some((r) => r.test(path));
