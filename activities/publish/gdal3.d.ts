// gdal3.js ships no types: GDAL compiled to WebAssembly; in Node it reads local paths and writes to its own
// in-memory file system, from which getFileBytes returns what ogr2ogr wrote.
declare module 'gdal3.js/node.js' {
  export interface GdalFile {
    local: string;
    real: string;
  }
  export interface GdalDataset {
    pointer: number;
  }
  export interface Gdal {
    open(path: string | string[]): Promise<{ datasets: GdalDataset[]; errors: string[] }>;
    close(dataset: GdalDataset): Promise<void>;
    ogr2ogr(dataset: GdalDataset, options: string[], outputName?: string): Promise<GdalFile>;
    /** ogrinfo's JSON output (`-json`) as an object. */
    ogrinfo(dataset: GdalDataset, options?: string[]): Promise<object>;
    getFileBytes(path: string | GdalFile): Promise<Uint8Array>;
  }
  function initGdalJs(options: { path?: string; useWorker?: boolean; dest?: string }): Promise<Gdal>;
  export default initGdalJs;
}
