import type { Canvas } from './canvas.js';
import type { RgbaImage } from './types.js';

/**
 * Draws an RGBA image scaled to w×h pixels, centred on (cx, cy) and turned `angle` radians
 * counter-clockwise. Each output pixel averages up to 4×4 bilinear samples (enough when icons are
 * shrunk), weighting colors by alpha so transparent borders do not darken the edges.
 */
export function drawPicture(
  canvas: Canvas,
  image: RgbaImage,
  cx: number,
  cy: number,
  w: number,
  h: number,
  angle: number,
  opacity: number,
): void {
  if (image.width <= 0 || image.height <= 0) return;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const reach = Math.hypot(w, h) / 2 + 1;
  const x0 = Math.max(0, Math.floor(cx - reach));
  const x1 = Math.min(canvas.width - 1, Math.ceil(cx + reach));
  const y0 = Math.max(0, Math.floor(cy - reach));
  const y1 = Math.min(canvas.height - 1, Math.ceil(cy + reach));
  const sx = image.width / w;
  const sy = image.height / h;
  const n = Math.min(4, Math.max(1, Math.ceil(Math.max(sx, sy))));
  const inv = 1 / (n * n);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      let sa = 0;
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) {
          const dx = x + (i + 0.5) / n - cx;
          const dy = y + (j + 0.5) / n - cy;
          // Undo the counter-clockwise turn (screen y down) to land in the unrotated picture.
          const lx = dx * cos - dy * sin;
          const ly = dx * sin + dy * cos;
          const u = (lx + w / 2) * sx - 0.5;
          const v = (ly + h / 2) * sy - 0.5;
          if (u < -1 || v < -1 || u > image.width || v > image.height) continue;
          sampleInto(image, u, v, acc);
          sa += acc[3];
          sr += acc[0];
          sg += acc[1];
          sb += acc[2];
        }
      }
      if (sa <= 0) continue;
      canvas.blend(y * canvas.width + x, sr / sa, sg / sa, sb / sa, (sa * inv * opacity) / 255);
    }
  }
}

const acc = new Float64Array(4);

/** Bilinear sample at (u, v): alpha-weighted color sums in out[0..2], alpha in out[3]. */
function sampleInto(image: RgbaImage, u: number, v: number, out: Float64Array): void {
  const iu = Math.floor(u);
  const iv = Math.floor(v);
  const fu = u - iu;
  const fv = v - iv;
  out[0] = out[1] = out[2] = out[3] = 0;
  for (let k = 0; k < 4; k++) {
    const px = iu + (k & 1);
    const py = iv + (k >> 1);
    if (px < 0 || py < 0 || px >= image.width || py >= image.height) continue;
    const weight = ((k & 1) === 1 ? fu : 1 - fu) * (k >> 1 === 1 ? fv : 1 - fv);
    const i = (py * image.width + px) * 4;
    const a = image.data[i + 3] * weight;
    out[0] += image.data[i] * a;
    out[1] += image.data[i + 1] * a;
    out[2] += image.data[i + 2] * a;
    out[3] += a;
  }
}
