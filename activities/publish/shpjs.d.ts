// shpjs ships no types: it takes a zip (or .shp) buffer, or an object of a shapefile's parts, and
// resolves to GeoJSON (one collection per shapefile).
declare module 'shpjs' {
  interface ShapefileParts {
    shp: Uint8Array;
    dbf?: Uint8Array;
    prj?: Uint8Array | string;
    cpg?: Uint8Array | string;
  }
  function shp(input: ArrayBuffer | Buffer | Uint8Array | ShapefileParts): Promise<unknown>;
  export default shp;
}
