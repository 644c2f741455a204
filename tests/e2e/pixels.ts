import type { Locator, Page } from '@playwright/test';

/**
 * What a person would see of a 3D canvas, read from a screenshot: which pixels the model covers,
 * where they are, and their colour. The PNG is decoded by the
 * page's own 2D canvas, so the numbers are the composited pixels on screen.
 */
export interface CanvasPixels {
  width: number;
  height: number;
  /** Share of the canvas covered by the model (pixels that differ from the corner). */
  painted: number;
  /** The painted pixels' bounding box, in canvas pixels (null when nothing is painted). */
  box: { x: number; y: number; width: number; height: number } | null;
  /** Horizontal centre of mass of the painted pixels, 0 (left edge) … 1 (right edge). */
  centreX: number;
  /**
   * The painted pixels in the top `topShare` of the box (a standing figure's head): their median
   * colour (0–255, robust to the anti-aliased edges) and saturation (max − min channel).
   */
  top: { r: number; g: number; b: number; saturation: number; count: number };
  /** The painted span (first to last painted pixel) of each of the box's first 16 rows, in pixels. */
  rowSpans: number[];
}

export async function readCanvas(page: Page, canvas: Locator, topShare = 0.25): Promise<CanvasPixels> {
  // The canvas is transparent over the stage's glow: a flat backing behind it for the moment of
  // the screenshot makes "differs from the corner" mean "the model" everywhere on the canvas.
  // What is drawn over the canvas (the stage's framing toggle, on a phone its caption) is not the
  // model: hidden meanwhile.
  const overlays = canvas.page().locator('[data-testid="stage-framing"], .stage__caption');
  await canvas.evaluate((el: HTMLElement) => (el.style.background = 'rgb(0, 0, 0)'));
  await overlays.evaluateAll((els) => els.forEach((el) => ((el as HTMLElement).style.visibility = 'hidden')));
  const png = (await canvas.screenshot()).toString('base64');
  await overlays.evaluateAll((els) => els.forEach((el) => ((el as HTMLElement).style.visibility = '')));
  await canvas.evaluate((el: HTMLElement) => (el.style.background = ''));
  return page.evaluate(
    async ({ b64, topShare }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      if (!ctx) throw new Error('no 2D context');
      ctx.drawImage(img, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
      const at = (x: number, y: number) => (y * width + x) * 4;
      // The viewer's rounded corners show the page, not the backing: leave them out.
      const corner = 24;
      // A canvas at a fractional position (a phone's 320 px canvas centred in 375) screenshots with
      // a column or row of the page around it: the outermost pixels are left out too.
      const inCorner = (x: number, y: number) =>
        ((x < corner || x >= width - corner) && (y < corner || y >= height - corner)) ||
        x === 0 ||
        y === 0 ||
        x === width - 1 ||
        y === height - 1;
      const isPainted = (i: number) => (data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0) > 40;
      let painted = 0;
      let sumX = 0;
      let [minX, minY, maxX, maxY] = [width, height, -1, -1];
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          if (inCorner(x, y) || !isPainted(at(x, y))) continue;
          painted++;
          sumX += x;
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
      const box = painted ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : null;
      const channels: Record<'r' | 'g' | 'b' | 'saturation', number[]> = {
        r: [],
        g: [],
        b: [],
        saturation: [],
      };
      if (box) {
        const limit = box.y + Math.max(1, Math.round(box.height * topShare));
        for (let y = box.y; y < limit; y++)
          for (let x = box.x; x <= maxX; x++) {
            const i = at(x, y);
            if (inCorner(x, y) || !isPainted(i)) continue;
            const [r, g, b] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
            channels.r.push(r);
            channels.g.push(g);
            channels.b.push(b);
            channels.saturation.push(Math.max(r, g, b) - Math.min(r, g, b));
          }
      }
      const rowSpans: number[] = [];
      for (let y = box?.y ?? height; y < Math.min(height, (box?.y ?? height) + 16); y++) {
        let [first, last] = [width, -1];
        for (let x = 0; x < width; x++)
          if (!inCorner(x, y) && isPainted(at(x, y))) [first, last] = [Math.min(first, x), x];
        rowSpans.push(last >= 0 ? last - first + 1 : 0);
      }
      const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
      const top = {
        r: median(channels.r),
        g: median(channels.g),
        b: median(channels.b),
        saturation: median(channels.saturation),
        count: channels.r.length,
      };
      return {
        width,
        height,
        painted: painted / (width * height),
        box,
        centreX: painted ? sumX / painted / width : 0.5,
        top,
        rowSpans,
      };
    },
    { b64: png, topShare },
  );
}
