import type { EsriGeometryType } from '../geometry/types.js';
import type { DrawingInfo } from './types.js';

/** One blue shared by the defaults, with white outlines, as hosted layers get before anyone styles them. */
const FILL_BLUE = [0, 122, 194, 255];

/**
 * The drawingInfo a new hosted layer gets: a simple renderer with a blue circle marker, a blue line,
 * or a translucent blue fill with a white outline. No transparency, no labels.
 */
export function defaultDrawingInfo(geometryType: EsriGeometryType | string): DrawingInfo {
  const outline = {
    type: 'esriSLS' as const,
    style: 'esriSLSSolid',
    color: [255, 255, 255, 255],
    width: 0.75,
  };
  if (geometryType === 'esriGeometryPolyline') {
    return {
      renderer: {
        type: 'simple',
        symbol: { type: 'esriSLS', style: 'esriSLSSolid', color: FILL_BLUE, width: 1.5 },
        label: '',
        description: '',
      },
      transparency: 0,
      labelingInfo: null,
    };
  }
  if (geometryType === 'esriGeometryPolygon' || geometryType === 'esriGeometryEnvelope') {
    return {
      renderer: {
        type: 'simple',
        symbol: { type: 'esriSFS', style: 'esriSFSSolid', color: [0, 122, 194, 128], outline },
        label: '',
        description: '',
      },
      transparency: 0,
      labelingInfo: null,
    };
  }
  return {
    renderer: {
      type: 'simple',
      symbol: {
        type: 'esriSMS',
        style: 'esriSMSCircle',
        color: FILL_BLUE,
        size: 6,
        angle: 0,
        xoffset: 0,
        yoffset: 0,
        outline,
      },
      label: '',
      description: '',
    },
    transparency: 0,
    labelingInfo: null,
  };
}
