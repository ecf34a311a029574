import { describe, expect, it } from 'vitest';
import { downloadHeaders, servedContentType } from '../../../api/stored-download.js';

describe('headers of uploaded bytes', () => {
  it.each([
    'text/html',
    'text/html; charset=utf-8',
    'image/svg+xml',
    'application/xhtml+xml',
    'text/xml',
    'application/xml',
    'text/javascript',
    'application/javascript',
    'application/pdf',
    'application/octet-stream',
    'application/x-unknown-thing',
  ])('makes %s a sandboxed download even where attachments show inline', (type) => {
    const headers = downloadHeaders({ contentType: type, filename: 'x', inline: true });
    expect(headers['Content-Disposition']).toBe("attachment; filename*=UTF-8''x");
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Content-Security-Policy']).toBe("sandbox; default-src 'none'");
  });

  it.each(['image/png', 'image/jpeg', 'text/plain', 'text/csv', 'application/json', 'video/mp4'])(
    'shows %s inline where asked, still with nosniff and the sandbox',
    (type) => {
      const headers = downloadHeaders({
        contentType: type,
        filename: 'pier photo.jpg',
        size: 12,
        inline: true,
      });
      expect(headers).toEqual({
        'Content-Type': type,
        'Content-Length': '12',
        'Content-Disposition': "inline; filename*=UTF-8''pier%20photo.jpg",
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "sandbox; default-src 'none'",
      });
    },
  );

  it('makes even safe types a download where the route saves rather than shows', () => {
    expect(
      downloadHeaders({ contentType: 'image/png', filename: 'a.png', inline: false })['Content-Disposition'],
    ).toBe("attachment; filename*=UTF-8''a.png");
  });

  it('says attachment without a name for an active type', () => {
    expect(downloadHeaders({ contentType: 'text/html', inline: true })['Content-Disposition']).toBe(
      'attachment',
    );
  });

  it('serves a malformed or header-breaking stored type as octet-stream', () => {
    expect(servedContentType('text/html\r\nSet-Cookie: a=b')).toBe('application/octet-stream');
    expect(servedContentType('not a type')).toBe('application/octet-stream');
    expect(servedContentType(null)).toBe('application/octet-stream');
    expect(servedContentType('Text/CSV; Charset=UTF-8; boundary=x')).toBe('text/csv; charset=utf-8');
  });
});
