/**
 * Esri JSON symbols and renderers (as layers store them and lib/render draws them) to and from the
 * SOAP FeatureRenderer and Symbol types. Colors carry their alpha as AlphaValue; style names swap
 * the vendor prefix; marker styles the SOAP enum lacks (triangle) become the nearest it has.
 */
import type { ColorRamp as RampInput } from '../../lib/render/renderer-builder.js';
import type * as Esri from '../../lib/render/types.js';
import { clientFault } from '../fault.js';
import type {
  Color,
  ColorRamp,
  FeatureRenderer,
  geoSimpleFillStyle,
  geoSimpleLineStyle,
  geoSimpleMarkerStyle,
  SimpleLineSymbol,
  Symbol as SoapSymbol,
  Tagged,
} from '../schema/generated-types.js';

const MARKER_STYLES = new Set(['Circle', 'Square', 'Cross', 'X', 'Diamond']);

export function toSoapColor(c: Esri.EsriColor | undefined): Color | undefined {
  if (!c) return undefined;
  const [Red = 0, Green = 0, Blue = 0, alpha = 255] = c;
  return { $type: 'RgbColor', AlphaValue: alpha, Red, Green, Blue };
}

export function fromSoapColor(c: Color | undefined): number[] | null {
  if (!c) return null;
  const a = c.AlphaValue ?? 255;
  switch (c.$type) {
    case 'RgbColor':
      return [c.Red, c.Green, c.Blue, a];
    case 'GrayColor':
      return [c.GrayLevel, c.GrayLevel, c.GrayLevel, a];
    case 'HsvColor':
      return [...hsvToRgb(c.Hue, c.Saturation / 100, c.Value / 100), a];
    default:
      throw clientFault(`Color type ${c.$type} is not supported; send RgbColor, GrayColor or HsvColor.`);
  }
}

function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h / 60) % 6;
    return Math.round(255 * (v - v * s * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

const style = <T extends string>(esri: string | undefined, fallback: T): T =>
  (esri ? esri.replace(/^esri/, 'geo') : fallback) as T;

function lineSymbol(s: Esri.SimpleLineSymbol): Tagged<SimpleLineSymbol> {
  return {
    $type: 'SimpleLineSymbol',
    Color: toSoapColor(s.color),
    Width: s.width ?? 1,
    Style: style<geoSimpleLineStyle>(s.style, 'geoSLSSolid'),
  };
}

export function toSoapSymbol(s: Esri.EsriSymbol): SoapSymbol {
  switch (s.type) {
    case 'esriSMS': {
      const shape = (s.style ?? 'esriSMSCircle').replace(/^esriSMS/, '');
      return {
        $type: 'SimpleMarkerSymbol',
        Angle: s.angle ?? 0,
        Color: toSoapColor(s.color),
        Size: s.size ?? 6,
        XOffset: s.xoffset ?? 0,
        YOffset: s.yoffset ?? 0,
        Outline: Boolean(s.outline),
        OutlineSize: s.outline?.width ?? 0,
        OutlineColor: toSoapColor(s.outline?.color) ?? { $type: 'RgbColor', Red: 0, Green: 0, Blue: 0 },
        Style: `geoSMS${MARKER_STYLES.has(shape) ? shape : 'Diamond'}` as geoSimpleMarkerStyle,
      };
    }
    case 'esriSLS':
      return lineSymbol(s);
    case 'esriSFS':
    case 'esriPFS':
      return {
        $type: 'SimpleFillSymbol',
        Color: toSoapColor(s.type === 'esriSFS' ? s.color : [200, 200, 200, 255]),
        ...(s.outline ? { Outline: lineSymbol(s.outline) } : {}),
        Style: s.type === 'esriSFS' ? style<geoSimpleFillStyle>(s.style, 'geoSFSSolid') : 'geoSFSSolid',
      };
    case 'esriPMS':
      return {
        $type: 'PictureMarkerSymbol',
        Angle: s.angle ?? 0,
        Size: s.height ?? s.width ?? 12,
        XOffset: s.xoffset ?? 0,
        YOffset: s.yoffset ?? 0,
        XScale: 1,
        YScale: 1,
        ...(s.imageData ? { Picture: Buffer.from(s.imageData, 'base64') } : {}),
        ...(s.url ? { PictureUri: s.url } : {}),
        Width: s.width ?? 12,
      };
    default:
      return { $type: 'SimpleTextSymbol' };
  }
}

export function fromSoapSymbol(s: SoapSymbol | undefined): Esri.EsriSymbol | null {
  if (!s) return null;
  const line = (l: SimpleLineSymbol | undefined): Esri.SimpleLineSymbol | null =>
    l
      ? {
          type: 'esriSLS',
          style: l.Style.replace(/^geo/, 'esri'),
          color: fromSoapColor(l.Color),
          width: l.Width,
        }
      : null;
  switch (s.$type) {
    case 'SimpleMarkerSymbol':
      return {
        type: 'esriSMS',
        style: s.Style.replace(/^geo/, 'esri'),
        color: fromSoapColor(s.Color),
        size: s.Size,
        angle: s.Angle,
        xoffset: s.XOffset,
        yoffset: s.YOffset,
        outline: s.Outline
          ? {
              type: 'esriSLS',
              style: 'esriSLSSolid',
              color: fromSoapColor(s.OutlineColor),
              width: s.OutlineSize,
            }
          : null,
      };
    case 'SimpleLineSymbol':
      return line(s);
    case 'SimpleFillSymbol':
      return {
        type: 'esriSFS',
        style: s.Style.replace(/^geo/, 'esri'),
        color: fromSoapColor(s.Color),
        outline: line(s.Outline),
      };
    default:
      throw clientFault(
        `Symbol type ${s.$type} is not supported here; use a simple marker, line or fill symbol.`,
      );
  }
}

export function fromSoapColorRamp(r: ColorRamp | undefined): RampInput {
  if (!r) return { type: 'algorithmic', fromColor: [255, 255, 204, 255], toColor: [189, 0, 38, 255] };
  if (r.$type === 'AlgorithmicColorRamp') {
    return {
      type: 'algorithmic',
      fromColor: (r.FromColor && fromSoapColor({ ...r.FromColor, $type: 'HsvColor' })) ?? [
        255, 255, 255, 255,
      ],
      toColor: (r.ToColor && fromSoapColor({ ...r.ToColor, $type: 'HsvColor' })) ?? [0, 0, 0, 255],
      algorithm: r.Algorithm,
    };
  }
  if (r.$type === 'MultiPartColorRamp') {
    return { type: 'multipart', colorRamps: (r.ColorRamps ?? []).map(fromSoapColorRamp) };
  }
  throw clientFault(
    `Color ramp ${r.$type} is not supported; use an AlgorithmicColorRamp or MultiPartColorRamp.`,
  );
}

const symbolOr = (s: Esri.EsriSymbol | null | undefined) => (s ? toSoapSymbol(s) : undefined);

export function toSoapRenderer(r: Esri.FeatureRenderer): FeatureRenderer {
  switch (r.type) {
    case 'simple':
      return {
        $type: 'SimpleRenderer',
        Symbol: symbolOr(r.symbol) ?? toSoapSymbol({ type: 'esriSMS' }),
        Label: r.label ?? '',
        Description: r.description ?? '',
      };
    case 'uniqueValue':
      return {
        $type: 'UniqueValueRenderer',
        Field1: r.field1,
        ...(r.field2 ? { Field2: r.field2 } : {}),
        ...(r.field3 ? { Field3: r.field3 } : {}),
        FieldDelimiter: r.fieldDelimiter ?? ',',
        DefaultSymbol: symbolOr(r.defaultSymbol),
        DefaultLabel: r.defaultLabel ?? '',
        UniqueValueInfos: (r.uniqueValueInfos ?? []).map((u) => ({
          Value: u.value === null ? '<Null>' : String(u.value),
          Label: u.label ?? String(u.value),
          Description: u.description ?? '',
          Symbol: symbolOr(u.symbol),
        })),
      };
    case 'classBreaks':
      return {
        $type: 'ClassBreaksRenderer',
        Field: r.field,
        MinimumValue: r.minValue ?? r.classBreakInfos[0]?.classMinValue ?? 0,
        ClassBreakInfos: r.classBreakInfos.map((c, i, all) => ({
          ClassMaximumValue: c.classMaxValue,
          Label: c.label ?? '',
          Description: c.description ?? '',
          Symbol: symbolOr(c.symbol) ?? toSoapSymbol({ type: 'esriSMS' }),
          ClassMinimumValue: c.classMinValue ?? (i === 0 ? (r.minValue ?? 0) : all[i - 1].classMaxValue),
        })),
        ...(r.normalizationField ? { NormalizationField: r.normalizationField } : {}),
        ...(r.normalizationType
          ? { NormalizationType: r.normalizationType.replace(/^esri/, 'geo') as 'geoNormalizeByField' }
          : {}),
        ...(r.normalizationTotal !== undefined ? { NormalizationTotal: r.normalizationTotal } : {}),
      };
  }
}
