/** Decodes the images of picture symbols (imageData, base64) so the renderer can draw them. */
import sharp from 'sharp';
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
        const { data, info: meta } = await sharp(Buffer.from(symbol.imageData ?? '', 'base64'))
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
