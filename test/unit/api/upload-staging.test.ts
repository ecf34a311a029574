import { describe, expect, it } from 'vitest';
import type { FileStaging } from '../../../api/params.js';
import { uploadStaging } from '../../../api/upload-routes.js';

const store = {} as FileStaging['store'];
const csv = { filename: 'places.csv', mimeType: 'application/octet-stream' };

describe('where an upload is stored as it arrives', () => {
  it("stages addItem's file as the new item's file, with the content type the item records", () => {
    for (const path of [
      '/sharing/rest/content/users/amy/addItem',
      '/sharing/rest/content/users/amy/4f1c0ad6d5b24e8e9b0c6f2b5a1d7e3c/addItem',
    ]) {
      const staging = uploadStaging(path, store);
      const a = staging?.target('file', csv);
      const b = staging?.target('File', { filename: 'towns.gpkg', mimeType: 'application/octet-stream' });
      expect(a?.key).toBe(`items/${a?.id}/data`);
      expect(a?.id).toMatch(/^[0-9a-f]{32}$/);
      expect(a?.contentType).toBe('text/csv');
      expect(b?.contentType).toBe('application/geopackage+sqlite3');
      expect(b?.id).not.toBe(a?.id);
      expect(staging?.target('thumbnail', { filename: 't.png', mimeType: 'image/png' })).toBeUndefined();
    }
  });

  it("stages a publish's file as its job's source, and nothing of other routes", () => {
    const publish = uploadStaging('/sharing/rest/content/users/amy/publish', store)?.target('file', csv);
    expect(publish?.key).toBe(`publish/${publish?.id}/source`);
    expect(publish?.contentType).toBeUndefined();
    // An update would write over the item's file before the update is checked.
    for (const path of [
      '/sharing/rest/content/users/amy/items/4f1c0ad6d5b24e8e9b0c6f2b5a1d7e3c/update',
      '/sharing/rest/content/users/amy/items/4f1c0ad6d5b24e8e9b0c6f2b5a1d7e3c/addPart',
      '/sharing/rest/content/features/analyze',
      '/sharing/rest/content/users/amy/addItemX',
    ]) {
      expect(uploadStaging(path, store)).toBeUndefined();
    }
  });
});
