// shpjs ships no types: it takes a zip (or .shp) buffer and resolves to GeoJSON, one collection per shapefile.
declare module 'shpjs' {
  function shp(input: ArrayBuffer | Buffer | Uint8Array): Promise<unknown>;
  export default shp;
}
