import { describe, expect, it } from 'vitest';
import { stack } from '../support/portal-client.js';
import { callMultipart, newUser, type TestUser, unique } from './portal-helpers.js';

const SCRIPT_PAGE = Buffer.from(
  '<html><body><script>fetch("/sharing/rest/community/self")</script></body></html>',
);

const upload = async (user: TestUser, name: string, bytes: Buffer, type: string) => {
  const added = await callMultipart(
    `/sharing/rest/content/users/${user.username}/addItem`,
    { token: user.token, type: 'Document Link', title: unique('upload ') },
    { name, bytes, type },
  );
  expect(added.json.success).toBe(true);
  return fetch(`${stack().baseUrl}/sharing/rest/content/items/${added.json.id}/data?token=${user.token}`);
};

describe('downloads of uploaded item data', () => {
  it('sends an uploaded HTML page as a sandboxed download the browser must not sniff', async () => {
    const u = await newUser();
    const res = await upload(u, 'page.html', SCRIPT_PAGE, 'text/html');
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''page.html");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(Buffer.from(await res.arrayBuffer()).equals(SCRIPT_PAGE)).toBe(true);
  });

  it('sends SVG the same way', async () => {
    const u = await newUser();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const res = await upload(u, 'logo.svg', svg, 'image/svg+xml');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps a page uploaded under an innocent type from being sniffed as HTML', async () => {
    const u = await newUser();
    const res = await upload(u, 'notes.unknownext', SCRIPT_PAGE, 'application/octet-stream');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });
});
