/**
 * Decodes the images of picture symbols (imageData, base64) so the renderer can draw them. A symbol
 * is drawn a few dozen pixels wide, but its picture comes from whoever wrote the renderer: pictures
 * over MAX_PICTURE_PIXELS are not decoded (libvips refuses them before allocating; they draw nothing,
 * as an unreadable picture does), and the rest are kept at most MAX_PICTURE_SIDE pixels on a side.
 * Decoded at full size, one 16,384-pixel-square PNG of a few kilobytes held 1 GiB.
 */
import sharp from 'sharp';

export const MAX_PICTURE_PIXELS = 4096 * 4096;
export const MAX_PICTURE_SIDE = 512;

import { pictureKey } from '../../lib/render/draw-context.js';
import { legendClasses } from '../../lib/render/renderer-symbols.js';
import type {
  DrawingInfo,
  PictureFillSymbol,
  PictureMarkerSymbol,
  RgbaImage,
} from '../../lib/render/types.js';

export async function decodePictures(
  infos: readonly (DrawingInfo | null)[],
): Promise<Map<string, RgbaImage>> {
  const out = new Map<string, RgbaImage>();
  for (const info of infos) {
    if (!info?.renderer) continue;
    for (const c of legendClasses(info.renderer)) {
      const s = c.symbol;
      if ((s.type !== 'esriPMS' && s.type !== 'esriPFS') || !s.imageData) continue;
      const symbol = s as PictureMarkerSymbol | PictureFillSymbol;
      const key = pictureKey(symbol);
      if (out.has(key)) continue;
      try {
        const { data, info: meta } = await sharp(Buffer.from(symbol.imageData ?? '', 'base64'), {
          limitInputPixels: MAX_PICTURE_PIXELS,
        })
          .resize(MAX_PICTURE_SIDE, MAX_PICTURE_SIDE, { fit: 'inside', withoutEnlargement: true })
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        out.set(key, { width: meta.width, height: meta.height, data: new Uint8Array(data) });
      } catch {
        // An unreadable picture draws nothing, as a broken image would in a client.
      }
    }
  }
  return out;
}
