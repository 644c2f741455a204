import {
  useEffect,
  useEffectEvent,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Canvas } from '@react-three/fiber';
import type { Object3D, WebGLRenderer } from 'three';
import type { Gesture } from '@alma/protocol';
import { AvatarBadge } from '../../../components/ui/AvatarBadge.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import {
  createAvatarAnimator,
  type AvatarAnimator,
  type AvatarEmotion,
  type MouthSource,
} from '../engine/index.ts';
import { dispatchModelError } from '../model.ts';
import { registerDebugAvatar } from './debug.ts';
import { placeModel, type FramingMode, type Placement } from './framing.ts';
import { STAGE_LIGHTS } from './lights.ts';
import { loadModel } from './load-model.ts';
import { FrameRateCap } from './FrameRateCap.tsx';
import { ModelStage } from './ModelStage.tsx';
import {
  ViewerLoadError,
  classifyLoadError,
  contextRegistry,
  initialViewerState,
  viewerReducer,
} from './state.ts';
import { useDocumentVisible, useViewerProfile, type ViewerProfile } from './use-viewer-profile.ts';
import '../avatar.css';

/** What the preview modal's buttons do to the view. */
export interface AvatarViewerHandle {
  /** Camera, zoom and model turn back to where they started. */
  resetView: () => void;
  /** Turns the model about its vertical axis. */
  rotate: (degrees: number) => void;
}

export interface ViewerGesture {
  name: Gesture;
  /** Changes each time the gesture should (re)start. */
  key: number;
  durationMs?: number;
  /** Delay before it starts (the intent's place in the reply's speech). */
  startInMs?: number;
}

export interface AvatarViewerProps {
  modelUrl: string;
  /** The avatar shown (its id), for the model-error event and the debug handle. */
  avatar: string | null;
  /** The canvas's accessible name. */
  label: string;
  mouth?: MouthSource | null;
  speaking?: boolean;
  emotion?: AvatarEmotion | null;
  gesture?: ViewerGesture | null;
  handleRef?: Ref<AvatarViewerHandle>;
  /** Raise the model-load error event (spec §4) on failure: the chosen avatar's viewer does. */
  reportErrors?: boolean;
  className?: string;
  /**
   * The chat stage's framing (SPEC ST-3): head and shoulders or full body, the camera following
   * speech and gestures. Without it the model is shown whole and zooms freely (previews).
   */
  framing?: FramingMode;
}

/** How long a lost context may take to come back before the advice replaces the notice. */
const CONTEXT_RESTORE_WAIT_MS = 4000;

/**
 * The 3D avatar viewer (spec §2 "3D viewer behaviour"): loads a meshopt-compressed glTF, hands it
 * to the animation engine and renders what the engine computes. States loading / error (retry) /
 * ready; a lost WebGL context shows a recovery notice; rendering pauses while the tab is hidden.
 * The engine is driven from `useFrame` through refs; props only reach it from effects.
 */
export function AvatarViewer(props: AvatarViewerProps) {
  const { t } = useTranslation();
  const profile = useViewerProfile();
  const [token] = useState(() => Symbol('viewer'));
  const [attempt, setAttempt] = useState(0);
  const registered = useSyncExternalStore(contextRegistry.subscribe, () => contextRegistry.status(token));
  const foreground = useSyncExternalStore(contextRegistry.subscribe, () =>
    contextRegistry.isForeground(token),
  );
  const slot = profile.webgl ? registered : 'denied';

  // A context slot of the registry (at most four live canvases), released on unmount.
  useEffect(() => {
    if (!profile.webgl) return;
    contextRegistry.request(token);
    return () => contextRegistry.release(token);
  }, [profile.webgl, token]);

  const style = { maxWidth: profile.size.width, maxHeight: profile.size.height };
  const className = `avatar-viewer ${props.className ?? ''}`;

  if (slot !== 'granted') {
    return (
      <div
        className={`${className} avatar-viewer--static`}
        style={style}
        data-state={slot === 'denied' ? 'static' : 'loading'}
        role="img"
        aria-label={props.label}
      >
        <AvatarBadge id={props.avatar} size={profile.mobile ? 72 : 112} />
        {slot === 'denied' ? <p className="avatar-viewer__note">{t('avatar.viewer.unavailable')}</p> : null}
      </div>
    );
  }
  // A new model or a retry starts a fresh viewer (state, canvas and context).
  return (
    <LiveViewer
      key={`${props.modelUrl}#${attempt}`}
      {...props}
      profile={profile}
      className={className}
      style={style}
      attempt={attempt}
      foreground={foreground}
      onRetry={() => setAttempt((n) => n + 1)}
    />
  );
}

function LiveViewer({
  modelUrl,
  avatar,
  label,
  mouth,
  speaking,
  emotion,
  gesture,
  handleRef,
  reportErrors,
  className,
  framing,
  style,
  profile,
  attempt,
  foreground,
  onRetry,
}: AvatarViewerProps & {
  foreground: boolean;
  profile: ViewerProfile;
  style: { maxWidth: number; maxHeight: number };
  attempt: number;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(viewerReducer, initialViewerState);
  const [model, setModel] = useState<{ scene: Object3D; placement: Placement } | null>(null);
  const scene = model?.scene ?? null;
  const animatorRef = useRef<AvatarAnimator | null>(null);
  // The canvas's renderer, for the loader (KTX2 textures are transcoded for its GPU).
  const [renderer] = useState(() => {
    let resolve: (gl: WebGLRenderer) => void = () => undefined;
    const promise = new Promise<WebGLRenderer>((r) => (resolve = r));
    return { promise, resolve };
  });
  const visible = useDocumentVisible();
  const reportFailure = useEffectEvent((code: string) => {
    if (reportErrors) dispatchModelError({ error: code, avatar, modelUrl });
  });

  // Load once per mount (the parent remounts on a new model or a retry).
  useEffect(() => {
    const controller = new AbortController();
    loadModel(modelUrl, { signal: controller.signal, renderer: renderer.promise })
      .then(({ scene: loaded }) => {
        if (controller.signal.aborted) return disposeObject(loaded);
        // Never "ready" while showing nothing (SPEC ST-2): a model with no visible extent fails.
        const placement = placeModel(loaded);
        if (!placement) {
          disposeObject(loaded);
          throw new ViewerLoadError('empty');
        }
        setModel({ scene: loaded, placement });
        dispatch({ type: 'loaded' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const code = classifyLoadError(error);
        dispatch({ type: 'failed', code });
        reportFailure(code);
      });
    return () => controller.abort();
  }, [modelUrl, renderer]);

  // The engine owns the loaded scene's bones and morphs from here on. The effects below run
  // after this one, so a new animator receives the current inputs at once.
  useEffect(() => {
    if (!scene) return;
    let created: AvatarAnimator;
    try {
      created = createAvatarAnimator(scene);
    } catch (error) {
      console.error('Avatar engine failed', error);
      return () => disposeObject(scene);
    }
    animatorRef.current = created;
    const unregister = registerDebugAvatar({
      id: `${modelUrl}#${attempt}`,
      avatar,
      modelUrl,
      animator: created,
      root: scene,
    });
    return () => {
      unregister();
      animatorRef.current = null;
      created.dispose();
      disposeObject(scene);
    };
  }, [scene, avatar, modelUrl, attempt]);

  useEffect(() => animatorRef.current?.setMouthSource(mouth ?? null), [scene, mouth]);
  useEffect(() => animatorRef.current?.setSpeaking(!!speaking), [scene, speaking]);
  useEffect(() => animatorRef.current?.setEmotion(emotion ?? 'neutral'), [scene, emotion]);
  const playGesture = useEffectEvent(() => {
    if (gesture) animatorRef.current?.playGesture(gesture.name, gesture.durationMs, gesture.startInMs);
  });
  const gestureKey = gesture?.key;
  useEffect(() => {
    if (gestureKey !== undefined) playGesture();
  }, [scene, gestureKey]);

  // A lost context waits for the browser to restore it, then turns into advice.
  useEffect(() => {
    if (state.context !== 'lost') return;
    const timer = setTimeout(() => dispatch({ type: 'contextFailed' }), CONTEXT_RESTORE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [state.context]);

  // Hidden tab or broken context: no rendering. Behind another viewer: frames on demand only.
  // In front on a software renderer: frames on demand at the profile's rate (FrameRateCap).
  const live = visible && state.status === 'ready' && state.context === 'ok';
  const capped = live && foreground && profile.maxFps !== null;
  const frameloop = !live ? 'never' : foreground && !capped ? 'always' : 'demand';

  return (
    <div
      className={className}
      style={style}
      data-state={state.status}
      data-context={state.context}
      data-avatar={avatar ?? 'default'}
      data-renderer={profile.renderer}
      data-testid="avatar-viewer"
    >
      <Canvas
        className="avatar-viewer__canvas"
        frameloop={frameloop}
        dpr={profile.dpr}
        shadows={profile.shadows}
        camera={{ fov: 35, near: 0.05, far: 50 }}
        gl={{ antialias: profile.antialias, alpha: true, powerPreference: 'default' }}
        aria-label={label}
        role="img"
        onCreated={({ gl }) => {
          renderer.resolve(gl);
          const canvas = gl.domElement;
          canvas.addEventListener('webglcontextlost', (event) => {
            event.preventDefault();
            dispatch({ type: 'contextLost' });
          });
          canvas.addEventListener('webglcontextrestored', () => dispatch({ type: 'contextRestored' }));
        }}
      >
        <Lights shadows={profile.shadows} />
        {capped && profile.maxFps !== null ? <FrameRateCap fps={profile.maxFps} /> : null}
        {model ? (
          <ModelStage
            scene={model.scene}
            placement={model.placement}
            animatorRef={animatorRef}
            zoom={profile.zoom}
            shadows={profile.shadows}
            handleRef={handleRef}
            framing={framing}
            speaking={!!speaking}
            gesture={gesture ?? null}
          />
        ) : null}
      </Canvas>

      {state.status === 'loading' ? (
        <div className="avatar-viewer__overlay" role="status">
          <Spinner />
          <span>{t('avatar.viewer.loading')}</span>
        </div>
      ) : null}
      {state.status === 'error' ? (
        <div className="avatar-viewer__overlay avatar-viewer__overlay--error" role="alert">
          <p>{t(`avatar.viewer.errors.${state.code}`)}</p>
          <button type="button" className="button button--ghost" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {state.context !== 'ok' ? (
        <div className="avatar-viewer__overlay avatar-viewer__overlay--error" role="alert">
          <p>{t('avatar.viewer.contextLost')}</p>
          {state.context === 'failed' ? (
            <>
              <p className="avatar-viewer__note">{t('avatar.viewer.contextAdvice')}</p>
              <button type="button" className="button button--ghost" onClick={onRetry}>
                {t('common.retry')}
              </button>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Lights({ shadows }: { shadows: boolean }) {
  const { hemisphere, key, rims } = STAGE_LIGHTS;
  return (
    <>
      <hemisphereLight args={[hemisphere.sky, hemisphere.ground, hemisphere.intensity]} />
      <directionalLight
        position={key.position}
        intensity={key.intensity}
        color={key.color}
        castShadow={shadows}
        shadow-mapSize-width={1024}
        shadow-mapSize-height={1024}
      />
      {rims.map((rim) => (
        <directionalLight
          key={rim.color}
          position={rim.position}
          intensity={rim.intensity}
          color={rim.color}
        />
      ))}
    </>
  );
}

/** Frees a model's GPU resources once nothing shows it. */
function disposeObject(root: Object3D): void {
  root.traverse((node) => {
    const mesh = node as Partial<{ geometry: { dispose(): void }; material: unknown }>;
    mesh.geometry?.dispose();
    const materials = Array.isArray(mesh.material) ? mesh.material : mesh.material ? [mesh.material] : [];
    for (const material of materials as { dispose(): void; [key: string]: unknown }[]) {
      for (const value of Object.values(material)) {
        if (value && typeof value === 'object' && 'isTexture' in value)
          (value as unknown as { dispose(): void }).dispose();
      }
      material.dispose();
    }
  });
}
