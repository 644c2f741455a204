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
  /** What draws the canvas: a GPU, or the CPU (no GPU, or one the browser will not use). */
  renderer: 'gpu' | 'software';
  size: { width: number; height: number };
  zoom: { min: number; max: number };
  /** Device pixel ratio range handed to the renderer. */
  dpr: [number, number];
  shadows: boolean;
  antialias: boolean;
  /**
   * Frames a second at most while the stage is in front, or null for the display's own rate. A
   * software renderer (no GPU: SwiftShader, llvmpipe) draws every pixel on the CPU, which the
   * page, the sound and the rest of the machine need too.
   */
  maxFps: number | null;
}

/** What a canvas here can draw with: no WebGL (jsdom, old browsers), a GPU, or the CPU. */
export type WebGLSupport = 'none' | 'gpu' | 'software';

/** Renderer names of WebGL implementations that draw on the CPU. */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** Frames a second on a software renderer: the idle sway and speech read well at 30. */
export const SOFTWARE_RENDERER_FPS = 30;

let webglSupport: WebGLSupport | undefined;
/** Probes WebGL once: whether a context can be made, and whether a GPU draws it. */
export function webGLSupport(): WebGLSupport {
  if (webglSupport !== undefined) return webglSupport;
  if (typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent)) return (webglSupport = 'none');
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!gl) return (webglSupport = 'none');
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
    webglSupport = SOFTWARE_RENDERER.test(name) ? 'software' : 'gpu';
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  } catch {
    webglSupport = 'none';
  }
  return webglSupport;
}

/** Whether this browser can create a WebGL context at all. */
export function hasWebGL(): boolean {
  return webGLSupport() !== 'none';
}

export function viewerProfile(
  width: number,
  devicePixelRatio: number,
  cores: number,
  software = false,
): Omit<ViewerProfile, 'webgl'> {
  const mobile = width < VIEWER_BREAKPOINT_PX;
  // Phones, weak machines and software renderers: fewer pixels, no shadow pass; on the CPU also
  // no multisampling (four samples a pixel) and a capped frame rate.
  const strong = !mobile && cores >= 4 && !software;
  return {
    mobile,
    renderer: software ? 'software' : 'gpu',
    size: mobile ? { ...VIEWER_MAX_CANVAS_MOBILE } : { ...VIEWER_MAX_CANVAS },
    zoom: mobile ? { ...VIEWER_ZOOM_MOBILE } : { ...VIEWER_ZOOM },
    dpr: [1, software ? 1 : Math.min(devicePixelRatio || 1, mobile ? 1.5 : 2)],
    shadows: strong,
    antialias: !mobile && !software,
    maxFps: software ? SOFTWARE_RENDERER_FPS : null,
  };
}

function current(): ViewerProfile {
  const width = typeof window === 'undefined' ? 1280 : window.innerWidth;
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio;
  const cores = typeof navigator === 'undefined' ? 4 : (navigator.hardwareConcurrency ?? 4);
  const support = webGLSupport();
  return { ...viewerProfile(width, dpr, cores, support === 'software'), webgl: support !== 'none' };
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
