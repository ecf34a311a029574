import { randomUUID } from 'node:crypto';
import { publishSourceKey } from '../infra/object-keys.js';
import type { FileStaging } from './params.js';

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

const PUBLISH_ROUTE = /\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?\/publish$/i;

/**
 * The staging of a publish request's `file` part: stored, as it arrives, where a new publish job keeps
 * its source (`publish/{jobId}/source`, the job id made here), so the publish route adopts it instead of
 * sending the file to the object store after the whole body is read. Other routes stage nothing.
 */
export function publishStaging(path: string, store: FileStaging['store']): FileStaging | undefined {
  if (!PUBLISH_ROUTE.test(path)) return undefined;
  return {
    store,
    target(field) {
      if (field.toLowerCase() !== 'file') return undefined;
      const id = randomUUID();
      return { id, key: publishSourceKey(id) };
    },
  };
}
