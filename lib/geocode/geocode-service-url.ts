/** Which geocodeServiceUrl values a publish may name, and which of them is this portal's own locator. */

/** Whether a geocodeServiceUrl can be called: our own World locator, or an http(s) GeocodeServer. */
export const isCallableGeocodeService = (url: string): boolean =>
  isOwnLocator(url) || /^https?:\/\/[^/]+\/.*\/GeocodeServer\/?$/i.test(url);

/** A World GeocodeServer is taken for ours (or Esri's default): geocoded in process. */
export const isOwnLocator = (url: string | undefined): boolean =>
  !url || /\/rest\/services\/World\/GeocodeServer\/?$/i.test(new URL(url, 'http://local').pathname);
