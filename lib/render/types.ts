import type { EsriGeometry } from '../geometry/types.js';

/** Esri JSON symbol and renderer shapes the renderer reads (REST drawingInfo). */

/** [r, g, b, a], integers 0–255. Esri JSON allows null for "no color". */
export type EsriColor = number[] | null;

export interface SimpleLineSymbol {
  type: 'esriSLS';
  style?: string;
  color?: EsriColor;
  /** Points. */
  width?: number;
  /** Not in classic Esri JSON; accepted when present ('round' is the default). */
  cap?: 'butt' | 'round' | 'square';
  join?: 'round' | 'miter' | 'bevel';
  miterLimit?: number;
}

export interface SimpleMarkerSymbol {
  type: 'esriSMS';
  style?: string;
  color?: EsriColor;
  /** Points. */
  size?: number;
  /** Degrees counter-clockwise from east. */
  angle?: number;
  xoffset?: number;
  yoffset?: number;
  outline?: SimpleLineSymbol | null;
}

export interface PictureMarkerSymbol {
  type: 'esriPMS';
  url?: string;
  imageData?: string;
  contentType?: string;
  /** Points. */
  width?: number;
  height?: number;
  angle?: number;
  xoffset?: number;
  yoffset?: number;
}

export interface SimpleFillSymbol {
  type: 'esriSFS';
  style?: string;
  color?: EsriColor;
  outline?: SimpleLineSymbol | null;
}

export interface PictureFillSymbol {
  type: 'esriPFS';
  url?: string;
  imageData?: string;
  contentType?: string;
  width?: number;
  height?: number;
  outline?: SimpleLineSymbol | null;
}

export interface TextSymbol {
  type: 'esriTS';
  [key: string]: unknown;
}

export type EsriSymbol =
  | SimpleMarkerSymbol
  | PictureMarkerSymbol
  | SimpleLineSymbol
  | SimpleFillSymbol
  | PictureFillSymbol
  | TextSymbol;

export interface SimpleRenderer {
  type: 'simple';
  symbol?: EsriSymbol | null;
  label?: string;
  description?: string;
  visualVariables?: VisualVariable[];
}

export interface UniqueValueInfo {
  value: string | number | null;
  symbol?: EsriSymbol | null;
  label?: string;
  description?: string;
}

export interface UniqueValueRenderer {
  type: 'uniqueValue';
  field1: string;
  field2?: string | null;
  field3?: string | null;
  fieldDelimiter?: string;
  defaultSymbol?: EsriSymbol | null;
  defaultLabel?: string;
  uniqueValueInfos?: UniqueValueInfo[];
  /** Newer servers group classes; each class lists value tuples (one entry per field). */
  uniqueValueGroups?: {
    heading?: string;
    classes: {
      label?: string;
      description?: string;
      symbol?: EsriSymbol | null;
      values: (string | number | null)[][];
    }[];
  }[];
  visualVariables?: VisualVariable[];
}

export interface ClassBreakInfo {
  classMinValue?: number;
  classMaxValue: number;
  symbol?: EsriSymbol | null;
  label?: string;
  description?: string;
}

export interface ClassBreaksRenderer {
  type: 'classBreaks';
  field: string;
  minValue?: number;
  classBreakInfos: ClassBreakInfo[];
  defaultSymbol?: EsriSymbol | null;
  defaultLabel?: string;
  normalizationType?:
    | 'esriNormalizeByField'
    | 'esriNormalizeByLog'
    | 'esriNormalizeByPercentOfTotal'
    | string;
  normalizationField?: string;
  normalizationTotal?: number;
  visualVariables?: VisualVariable[];
}

/** The visual variables the renderer honours: size, color and rotation by a field. */
export interface VisualVariable {
  type: 'sizeInfo' | 'colorInfo' | 'rotationInfo' | string;
  field?: string;
  normalizationField?: string;
  minDataValue?: number;
  maxDataValue?: number;
  /** Points (a number; size expressions are not evaluated). */
  minSize?: number | object;
  maxSize?: number | object;
  stops?: { value: number; color?: EsriColor; size?: number }[];
  rotationType?: 'geographic' | 'arithmetic';
}

export type FeatureRenderer = SimpleRenderer | UniqueValueRenderer | ClassBreaksRenderer;

export interface DrawingInfo {
  renderer?: FeatureRenderer | null;
  /** 0 (opaque) – 100 (invisible). */
  transparency?: number;
  labelingInfo?: unknown;
}

export interface RenderFeature {
  geometry?: EsriGeometry | null;
  attributes?: Record<string, unknown> | null;
}

/** A decoded image: straight (non-premultiplied) RGBA rows, top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}
