/** vt-pbf ships no types: the one function the vector tile encoder calls. */
declare module 'vt-pbf' {
  interface GeojsonVtLayer {
    features: readonly unknown[];
  }
  export function fromGeojsonVt(
    layers: Record<string, GeojsonVtLayer>,
    options?: { version?: number; extent?: number },
  ): Uint8Array;
}
