/** Cuts a path into the "on" stretches of a dash pattern, measured along the path. */
export function dashes(xy: ArrayLike<number>, count: number, closed: boolean, pattern: number[]): number[][] {
  const out: number[][] = [];
  let k = 0;
  let left = pattern[0];
  let on = true;
  let current: number[] | null = [xy[0], xy[1]];
  const segments = closed ? count : count - 1;
  for (let s = 0; s < segments; s++) {
    const j = (s + 1) % count;
    let ax = xy[s * 2];
    let ay = xy[s * 2 + 1];
    const bx = xy[j * 2];
    const by = xy[j * 2 + 1];
    let len = Math.hypot(bx - ax, by - ay);
    while (len > 0) {
      const step = Math.min(left, len);
      const t = step / len;
      const cx = ax + (bx - ax) * t;
      const cy = ay + (by - ay) * t;
      if (on && current) current.push(cx, cy);
      ax = cx;
      ay = cy;
      len -= step;
      left -= step;
      if (left <= 1e-9) {
        if (on && current && current.length >= 4) out.push(current);
        on = !on;
        k = (k + 1) % pattern.length;
        left = pattern[k];
        current = on ? [ax, ay] : null;
      }
    }
  }
  if (on && current && current.length >= 4) out.push(current);
  return out;
}
