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

describe('requestPath as ArcGIS Server reads URLs', () => {
  it('drops a trailing slash, as esri-leaflet asks for …/FeatureServer/0/?f=json', () => {
    expect(path('http://h/rest/services/Hosted/a/FeatureServer/0/?f=json')).toBe(
      '/rest/services/Hosted/a/FeatureServer/0',
    );
    expect(path('http://h/portal/rest/services/Hosted/a/MapServer/?f=json')).toBe(
      '/portal/rest/services/Hosted/a/MapServer',
    );
    expect(path('http://h/rest/services//Hosted//a//MapServer//')).toBe('/rest/services/Hosted/a/MapServer');
  });

  it('folds the Hosted folder and the service type to their spelling, keeping the service name', () => {
    expect(path('http://h/rest/services/hosted/Parks_A/featureserver/0/query')).toBe(
      '/rest/services/Hosted/Parks_A/FeatureServer/0/query',
    );
    expect(path('http://h/services/HOSTED/b/MAPSERVER?wsdl')).toBe('/services/Hosted/b/MapServer');
    expect(path('http://h/rest/services/world/geocodeserver/findAddressCandidates')).toBe(
      '/rest/services/world/GeocodeServer/findAddressCandidates',
    );
    expect(path('http://h/rest/services/hosted/v/vectortileserver/tile/1/2/3.pbf')).toBe(
      '/rest/services/Hosted/v/VectorTileServer/tile/1/2/3.pbf',
    );
  });

  it('folds the folder alone and leaves paths that name no service alone', () => {
    expect(path('http://h/sharing/rest/content/users/mapserver')).toBe(
      '/sharing/rest/content/users/mapserver',
    );
    expect(path('http://h/rest/services/hosted')).toBe('/rest/services/Hosted');
  });
});
