import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createItem, getItem, getItemMetadata, updateItem } from '@esri/arcgis-rest-portal';
import {
  type ArcGISIdentityManager,
  NODEJS_DEFAULT_REFERER_HEADER,
  request,
} from '@esri/arcgis-rest-request';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { restJsRefusal, restJsUser, type TestUser, unique } from './portal-helpers.js';

/** A small image of one colour, in `format`. */
const image = (format: 'png' | 'jpeg', rgb: [number, number, number]) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .toFormat(format)
    .toBuffer();

const blob = (bytes: Uint8Array, type: string) => new Blob([bytes], { type });

describe('item thumbnails through @esri/arcgis-rest-portal', () => {
  let user: TestUser;
  let authentication: ArcGISIdentityManager;
  let portal: string;
  /** The thumbnail as an <img> would load it (the token is bound to rest-js's referer in Node). */
  const getThumbnail = (id: string, thumbnail: string, token?: string) =>
    fetch(`${portal}/content/items/${id}/info/${thumbnail}${token ? `?token=${token}` : ''}`, {
      headers: { referer: NODEJS_DEFAULT_REFERER_HEADER },
    });
  const refusal = (params: Record<string, string | Blob>) =>
    restJsRefusal(
      request(`${portal}/content/users/${user.username}/addItem`, {
        params: { title: unique('Refused '), type: 'Web Map', text: '{}', ...params },
        authentication,
      }),
    );

  beforeAll(async () => {
    ({ user, authentication, portal } = await restJsUser());
  });

  it('keeps the thumbnail sent with addItem, serves it to readers only, and replaces it on update', async () => {
    const png = await image('png', [200, 30, 30]);
    const added = await createItem({
      item: { title: unique('Thumbed '), type: 'Web Map' },
      text: '{}',
      params: { thumbnail: blob(png, 'image/png') },
      authentication,
    });
    const item = await getItem(added.id, { authentication });
    expect(item.thumbnail).toBe('thumbnail/thumbnail.png');
    const token = await authentication.getToken(portal);
    const res = await getThumbnail(added.id, item.thumbnail, token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
    // The item is private: no token, no thumbnail.
    const anonymous = await getThumbnail(added.id, item.thumbnail);
    expect(((await anonymous.json()) as { error?: { code: number } }).error?.code).toBeGreaterThanOrEqual(
      400,
    );

    const jpeg = await image('jpeg', [20, 60, 200]);
    await updateItem({
      item: { id: added.id },
      params: { thumbnail: blob(jpeg, 'image/jpeg') },
      authentication,
    });
    const updated = await getItem(added.id, { authentication });
    expect(updated.thumbnail).toBe('thumbnail/thumbnail.jpg');
    const again = await getThumbnail(added.id, updated.thumbnail, token);
    expect(again.headers.get('content-type')).toBe('image/jpeg');
    const pixel = await sharp(Buffer.from(await again.arrayBuffer()))
      .raw()
      .toBuffer();
    expect(Math.abs(pixel[2] - 200)).toBeLessThan(8);
    // The old name is gone with the old image.
    const old = await getThumbnail(added.id, 'thumbnail/thumbnail.png', token);
    expect(((await old.json()) as { error?: { code: number } }).error?.code).toBe(404);
  });

  it('refuses what is not an image, an image too large, and URLs to hosts the server may not contact', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const notImage = await refusal({ thumbnail: blob(Buffer.from(svg), 'image/svg+xml') });
    expect(notImage).toMatchObject({ code: 400 });

    expect(notImage.details).toEqual(['The thumbnail must be a PNG, JPEG, GIF or WebP image.']);
    const png = await image('png', [1, 2, 3]);
    const truncated = await refusal({ thumbnail: blob(png.subarray(0, png.length - 20), 'image/png') });
    expect(truncated.details).toEqual(['The thumbnail must be a PNG, JPEG, GIF or WebP image.']);
    const huge = await sharp({ create: { width: 9000, height: 10, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect((await refusal({ thumbnail: blob(huge, 'image/png') })).details).toEqual([
      'The thumbnail must be at most 8192 pixels a side.',
    ]);
    // Only hosts the administrator allowed are fetched (the test stack allows 127.0.0.1): not a cloud
    // metadata address.
    const url = await refusal({ thumbnailUrl: 'http://169.254.169.254/latest/meta-data/x.png' });
    expect(url).toMatchObject({ code: 400, message: 'The URL is not allowed.' });
  });

  it('fetches a thumbnailUrl from an allowed host, and refuses a page that is not an image', async () => {
    const png = await image('png', [10, 200, 10]);
    const server = createServer((req, res) => {
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not an image</html>');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const added = await createItem({
        item: { title: unique('From URL '), type: 'Web Map' },
        text: '{}',
        params: { thumbnailUrl: `${base}/logo.png` },
        authentication,
      });
      const item = await getItem(added.id, { authentication });
      expect(item.thumbnail).toBe('thumbnail/thumbnail.png');
      const res = await getThumbnail(added.id, item.thumbnail, await authentication.getToken(portal));
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
      const page = await refusal({ thumbnailUrl: `${base}/page.html` });
      expect(page.details).toEqual(['The thumbnail must be a PNG, JPEG, GIF or WebP image.']);
    } finally {
      server.close();
    }
  });

  it('keeps a metadata document sent with addItem or update and hands it to readers with getItemMetadata', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><metadata><idinfo><citation>Places</citation></idinfo></metadata>';
    const added = await createItem({
      item: { title: unique('Described '), type: 'Web Map' },
      text: '{}',
      params: { metadata: blob(Buffer.from(xml), 'application/xml') },
      authentication,
    });
    expect(await getItemMetadata(added.id, { authentication })).toBe(xml);
    const newer = xml.replace('Places', 'Towns');
    await updateItem({
      item: { id: added.id },
      params: { metadata: blob(Buffer.from(newer), 'text/xml') },
      authentication,
    });
    expect(await getItemMetadata(added.id, { authentication })).toBe(newer);
    // Served as a download, never rendered on the portal's origin.
    const res = await fetch(
      `${portal}/content/items/${added.id}/info/metadata/metadata.xml?token=${await authentication.getToken(portal)}`,
      {
        headers: { referer: NODEJS_DEFAULT_REFERER_HEADER },
      },
    );
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
    const plain = await createItem({
      item: { title: unique('Bare '), type: 'Web Map' },
      text: '{}',
      authentication,
    });
    // rest-js reads the file as text without looking for an error: the error is the text it gets.
    const none = JSON.parse(await getItemMetadata(plain.id, { authentication }));
    expect(none.error).toMatchObject({ code: 404, message: 'The item has no metadata.' });
    const notXml = await refusal({ metadata: blob(Buffer.from('just text'), 'text/plain') });
    expect(notXml.details).toEqual(["'metadata' must be an XML document in UTF-8."]);
  });
});
