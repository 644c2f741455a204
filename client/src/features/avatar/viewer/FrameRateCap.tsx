import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';

/**
 * Whether a display refresh at `now` should draw a frame when the last one was drawn at `last`,
 * for at most `fps` frames a second. Half a 60 Hz refresh of slack, so 30 on a 60 Hz display is
 * every second refresh (not every third when a refresh comes a little early).
 */
export function frameDue(now: number, last: number, fps: number): boolean {
  return now - last >= 1000 / fps - 8;
}

/**
 * Asks the canvas (frameloop "demand") for at most `fps` frames a second, in step with the
 * display's refresh. Where a GPU draws, the loop runs at the display's rate instead; on a
 * software renderer every frame is drawn by the CPU the page and the sound need too.
 */
export function FrameRateCap({ fps }: { fps: number }) {
  const invalidate = useThree((state) => state.invalidate);
  useEffect(() => {
    let last = -Infinity;
    let id = 0;
    const tick = (now: number) => {
      if (frameDue(now, last, fps)) {
        last = now;
        invalidate();
      }
      id = requestAnimationFrame(tick);
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
  }, [fps, invalidate]);
  return null;
}
