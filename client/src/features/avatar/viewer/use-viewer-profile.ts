import { useEffect, useState } from 'react';
import {
  VIEWER_BREAKPOINT_PX,
  VIEWER_MAX_CANVAS,
  VIEWER_MAX_CANVAS_MOBILE,
  VIEWER_ZOOM,
  VIEWER_ZOOM_MOBILE,
} from '@alma/protocol';

/** What the viewer adapts to the device (spec §2, §9): canvas cap, zoom range, quality. */
export interface ViewerProfile {
  mobile: boolean;
  webgl: boolean;
  size: { width: number; height: number };
  zoom: { min: number; max: number };
  /** Device pixel ratio range handed to the renderer. */
  dpr: [number, number];
  shadows: boolean;
  antialias: boolean;
}

let webglSupport: boolean | undefined;
/** Whether this browser can create a WebGL context at all (jsdom and old browsers cannot). */
export function hasWebGL(): boolean {
  if (webglSupport !== undefined) return webglSupport;
  if (typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent)) return (webglSupport = false);
  try {
    const canvas = document.createElement('canvas');
    webglSupport = !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    webglSupport = false;
  }
  return webglSupport;
}

export function viewerProfile(
  width: number,
  devicePixelRatio: number,
  cores: number,
): Omit<ViewerProfile, 'webgl'> {
  const mobile = width < VIEWER_BREAKPOINT_PX;
  // Phones and weak machines: fewer pixels, no shadow pass.
  const strong = !mobile && cores >= 4;
  return {
    mobile,
    size: mobile ? { ...VIEWER_MAX_CANVAS_MOBILE } : { ...VIEWER_MAX_CANVAS },
    zoom: mobile ? { ...VIEWER_ZOOM_MOBILE } : { ...VIEWER_ZOOM },
    dpr: [1, Math.min(devicePixelRatio || 1, mobile ? 1.5 : 2)],
    shadows: strong,
    antialias: !mobile,
  };
}

function current(): ViewerProfile {
  const width = typeof window === 'undefined' ? 1280 : window.innerWidth;
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio;
  const cores = typeof navigator === 'undefined' ? 4 : (navigator.hardwareConcurrency ?? 4);
  return { ...viewerProfile(width, dpr, cores), webgl: hasWebGL() };
}

/** The profile for the current window, updated when it crosses the viewer breakpoint. */
export function useViewerProfile(): ViewerProfile {
  const [profile, setProfile] = useState(current);
  useEffect(() => {
    const query = window.matchMedia?.(`(max-width: ${VIEWER_BREAKPOINT_PX - 1}px)`);
    if (!query) return;
    const update = () => setProfile(current());
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return profile;
}

/** False while the tab is hidden: the render loop stops then (spec: don't burn a hidden GPU). */
export function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || !document.hidden);
  useEffect(() => {
    const update = () => setVisible(!document.hidden);
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}
