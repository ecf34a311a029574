import { describe, expect, it } from 'vitest';
import { requestPath } from '../../../api/request-path.js';

const path = (url: string) => requestPath(new Request(url));

describe('requestPath', () => {
  it('collapses runs of slashes, as rest-js asks for //rest/info at a host-root server', () => {
    expect(path('http://127.0.0.1:8080//rest/info?f=json')).toBe('/rest/info');
    expect(path('http://h/portal///sharing//rest/info')).toBe('/portal/sharing/rest/info');
  });

  it('leaves ordinary paths and their query strings alone', () => {
    expect(path('http://h/rest/services/Hosted/a/MapServer/tile/3/2/1?token=x//y')).toBe(
      '/rest/services/Hosted/a/MapServer/tile/3/2/1',
    );
    expect(path('http://h/')).toBe('/');
  });
});
