import type { PortraitScene, Surface } from './scene.ts';

/**
 * A small software rasteriser for portraits (no GPU on the server, none needed for a 200 px
 * picture): perspective projection, a z-buffer, perspective-correct texture coordinates, and soft
 * lighting — a sky/ground ambient, a key light from the upper left, a fill from the right and a
 * rim — computed in linear light and written as sRGB with a transparent background.
 */

/** A camera level with its target, looking along the horizontal `forward` (±Z). */
export interface PortraitCamera {
  position: [number, number, number];
  /** +1: looking toward −Z (at a figure facing +Z); −1: looking toward +Z. */
  facing: 1 | -1;
  /** Vertical (and horizontal: the image is square) field of view, radians. */
  fov: number;
}

const toLinear = new Float32Array(256).map((_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const toSrgb = (c: number) => {
  const v = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, v)) * 255);
};

/** Directions toward each light in camera space (x right, y up, z toward the camera). */
const normalise = (v: [number, number, number]): [number, number, number] => {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
};
const KEY = normalise([-0.45, 0.55, 0.7]);
const FILL = normalise([0.7, 0.1, 0.5]);

/** RGBA pixels, `size` × `size`, row by row from the top. */
export function rasterise(scene: PortraitScene, camera: PortraitCamera, size: number): Uint8Array {
  const depth = new Float32Array(size * size).fill(Infinity);
  const colour = new Float32Array(size * size * 4);
  const focal = size / 2 / Math.tan(camera.fov / 2);
  const [cx, cy, cz] = camera.position;
  const f = camera.facing;
  const near = 1e-4;
  // Camera space: x = right (+X world when looking toward −Z), y = up, d = distance ahead.
  const view = (x: number, y: number, z: number): [number, number, number] => [
    f * (x - cx),
    y - cy,
    f * (cz - z),
  ];
  const opaque = scene.surfaces.filter((s) => s.material.alphaMode !== 'BLEND');
  const blended = scene.surfaces.filter((s) => s.material.alphaMode === 'BLEND');
  for (const surface of [...opaque, ...blended]) drawSurface(surface);

  const out = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    const a = colour[i * 4 + 3]!;
    if (a <= 0) continue;
    out[i * 4] = toSrgb(colour[i * 4]! / a);
    out[i * 4 + 1] = toSrgb(colour[i * 4 + 1]! / a);
    out[i * 4 + 2] = toSrgb(colour[i * 4 + 2]! / a);
    out[i * 4 + 3] = Math.round(Math.min(1, a) * 255);
  }
  return out;

  function drawSurface(surface: Surface) {
    const { positions, normals, uvs, colours, indices, material } = surface;
    const blend = material.alphaMode === 'BLEND';
    const count = positions.length / 3;
    const sx = new Float32Array(count);
    const sy = new Float32Array(count);
    const sd = new Float32Array(count);
    const vn = normals ? new Float32Array(count * 3) : null;
    for (let v = 0; v < count; v++) {
      const [x, y, d] = view(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!);
      sd[v] = d;
      sx[v] = size / 2 + (x / d) * focal;
      sy[v] = size / 2 - (y / d) * focal;
      if (vn && normals) {
        vn[v * 3] = f * normals[v * 3]!;
        vn[v * 3 + 1] = normals[v * 3 + 1]!;
        vn[v * 3 + 2] = f * normals[v * 3 + 2]!;
      }
    }
    const tex = material.texture;
    const [br, bg, bb, ba] = material.base;
    const [er, eg, eb] = material.emissive;
    for (let t = 0; t + 2 < indices.length; t += 3) {
      const a = indices[t]!;
      const b = indices[t + 1]!;
      const c = indices[t + 2]!;
      if (a >= count || b >= count || c >= count) continue;
      const da = sd[a]!;
      const db = sd[b]!;
      const dc = sd[c]!;
      if (da < near || db < near || dc < near) continue; // behind or at the camera
      const ax = sx[a]!;
      const ay = sy[a]!;
      const bx = sx[b]!;
      const by = sy[b]!;
      const qx = sx[c]!;
      const qy = sy[c]!;
      const area = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax);
      if (!Number.isFinite(area) || Math.abs(area) < 1e-12) continue;
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx, qx)));
      const x1 = Math.min(size - 1, Math.ceil(Math.max(ax, bx, qx)));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by, qy)));
      const y1 = Math.min(size - 1, Math.ceil(Math.max(ay, by, qy)));
      if (x0 > x1 || y0 > y1) continue;
      // The face's own normal, for surfaces without normals (camera space).
      let fnx = 0;
      let fny = 0;
      let fnz = 1;
      if (!vn) {
        const pa = view(positions[a * 3]!, positions[a * 3 + 1]!, positions[a * 3 + 2]!);
        const pb = view(positions[b * 3]!, positions[b * 3 + 1]!, positions[b * 3 + 2]!);
        const pc = view(positions[c * 3]!, positions[c * 3 + 1]!, positions[c * 3 + 2]!);
        const ux = pb[0] - pa[0];
        const uy = pb[1] - pa[1];
        const uz = pa[2] - pb[2];
        const wx = pc[0] - pa[0];
        const wy = pc[1] - pa[1];
        const wz = pa[2] - pc[2];
        fnx = uy * wz - uz * wy;
        fny = uz * wx - ux * wz;
        fnz = ux * wy - uy * wx;
        const l = Math.hypot(fnx, fny, fnz) || 1;
        fnx /= l;
        fny /= l;
        fnz /= l;
      }
      const ia = 1 / da;
      const ib = 1 / db;
      const ic = 1 / dc;
      for (let py = y0; py <= y1; py++) {
        for (let px = x0; px <= x1; px++) {
          const X = px + 0.5;
          const Y = py + 0.5;
          let w0 = ((bx - X) * (qy - Y) - (by - Y) * (qx - X)) / area;
          let w1 = ((qx - X) * (ay - Y) - (qy - Y) * (ax - X)) / area;
          let w2 = 1 - w0 - w1;
          if (w0 < 0 || w1 < 0 || w2 < 0) continue;
          const inv = w0 * ia + w1 * ib + w2 * ic;
          const d = 1 / inv;
          const pixel = py * size + px;
          if (d >= depth[pixel]!) continue;
          // Perspective-correct weights.
          w0 = (w0 * ia) / inv;
          w1 = (w1 * ib) / inv;
          w2 = 1 - w0 - w1;

          let r = br;
          let g = bg;
          let bl = bb;
          let alpha = ba;
          if (tex && uvs) {
            const u = w0 * uvs[a * 2]! + w1 * uvs[b * 2]! + w2 * uvs[c * 2]!;
            const v = w0 * uvs[a * 2 + 1]! + w1 * uvs[b * 2 + 1]! + w2 * uvs[c * 2 + 1]!;
            const tx = Math.min(tex.width - 1, Math.floor((u - Math.floor(u)) * tex.width));
            const ty = Math.min(tex.height - 1, Math.floor((v - Math.floor(v)) * tex.height));
            const k = (ty * tex.width + tx) * 4;
            r *= toLinear[tex.data[k]!]!;
            g *= toLinear[tex.data[k + 1]!]!;
            bl *= toLinear[tex.data[k + 2]!]!;
            alpha *= tex.data[k + 3]! / 255;
          }
          if (colours) {
            r *= w0 * colours[a * 4]! + w1 * colours[b * 4]! + w2 * colours[c * 4]!;
            g *= w0 * colours[a * 4 + 1]! + w1 * colours[b * 4 + 1]! + w2 * colours[c * 4 + 1]!;
            bl *= w0 * colours[a * 4 + 2]! + w1 * colours[b * 4 + 2]! + w2 * colours[c * 4 + 2]!;
            alpha *= w0 * colours[a * 4 + 3]! + w1 * colours[b * 4 + 3]! + w2 * colours[c * 4 + 3]!;
          }
          if (material.alphaMode === 'MASK' && alpha < material.alphaCutoff) continue;
          if (material.alphaMode === 'OPAQUE') alpha = 1;

          let nx = fnx;
          let ny = fny;
          let nz = fnz;
          if (vn) {
            nx = w0 * vn[a * 3]! + w1 * vn[b * 3]! + w2 * vn[c * 3]!;
            ny = w0 * vn[a * 3 + 1]! + w1 * vn[b * 3 + 1]! + w2 * vn[c * 3 + 1]!;
            nz = w0 * vn[a * 3 + 2]! + w1 * vn[b * 3 + 2]! + w2 * vn[c * 3 + 2]!;
            const l = Math.hypot(nx, ny, nz) || 1;
            nx /= l;
            ny /= l;
            nz /= l;
          }
          if (nz < 0) {
            // Seen from behind (a double-sided sheet): lit as its front.
            nx = -nx;
            ny = -ny;
            nz = -nz;
          }
          const key = Math.max(0, (nx * KEY[0] + ny * KEY[1] + nz * KEY[2] + 0.3) / 1.3);
          const fill = Math.max(0, nx * FILL[0] + ny * FILL[1] + nz * FILL[2]);
          const rim = (1 - nz) ** 3;
          const light = 0.32 + 0.12 * ny + 0.85 * key + 0.25 * fill;
          r = r * light + 0.18 * rim * r + er;
          g = g * light + 0.18 * rim * g + eg;
          bl = bl * light + 0.2 * rim * bl + eb;

          const o = pixel * 4;
          if (blend) {
            // Over what is already there (premultiplied); a blended surface hides nothing.
            const keep = 1 - alpha;
            colour[o] = r * alpha + colour[o]! * keep;
            colour[o + 1] = g * alpha + colour[o + 1]! * keep;
            colour[o + 2] = bl * alpha + colour[o + 2]! * keep;
            colour[o + 3] = alpha + colour[o + 3]! * keep;
          } else {
            depth[pixel] = d;
            colour[o] = r;
            colour[o + 1] = g;
            colour[o + 2] = bl;
            colour[o + 3] = 1;
          }
        }
      }
    }
  }
}
