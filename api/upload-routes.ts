import { randomUUID } from 'node:crypto';
import { itemDataKey, publishSourceKey } from '../infra/object-keys.js';
import { newId } from '../infra/secrets.js';
import type { FileStaging } from './params.js';
import { contentTypeOf } from './portal/item-data.js';

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
const ADD_ITEM_ROUTE = /\/sharing\/rest\/content\/users\/[^/]+(\/[^/]+)?\/addItem$/i;

/**
 * The staging of a request's `file` part: stored, as it arrives, where the route keeps it, so the route
 * adopts it instead of sending the file to the object store after the whole body is read. A publish
 * stages it as a new job's source (`publish/{jobId}/source`, the job id made here); addItem as a new
 * item's file (`items/{id}/data`, the item id made here, with the content type the item records). A part
 * the route does not adopt (a refused request, an item that takes the file under another id) is removed
 * when the request ends. Other routes stage nothing (an item's update would write over its file).
 */
export function uploadStaging(path: string, store: FileStaging['store']): FileStaging | undefined {
  if (PUBLISH_ROUTE.test(path)) {
    return {
      store,
      target(field) {
        if (field.toLowerCase() !== 'file') return undefined;
        const id = randomUUID();
        return { id, key: publishSourceKey(id) };
      },
    };
  }
  if (ADD_ITEM_ROUTE.test(path)) {
    return {
      store,
      target(field, file) {
        if (field.toLowerCase() !== 'file') return undefined;
        const id = newId();
        return { id, key: itemDataKey(id), contentType: contentTypeOf(file.filename, file.mimeType) };
      },
    };
  }
  return undefined;
}
