/**
 * Business constants of spec §9 that both ends use. One place: the server enforces them, the
 * client displays them, the tests read them from here.
 */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';
export const FALLBACK_LANGUAGE: Language = 'en';
/** Codes listed in the language picker (spec §1); only es and en have translations. */
export const LISTED_LANGUAGE_CODES = ['ES', 'EN', 'FR', 'DE', 'IT', 'PT'] as const;

export const THEMES = ['dark', 'light', 'auto'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'dark';

export const PERSONALITIES = ['default', 'formal', 'creative', 'technical'] as const;
export type Personality = (typeof PERSONALITIES)[number];

/**
 * Spec §3 lists seven emotions; §1 and §9 have the avatar show "surprised" too, so the contract
 * carries it and the server can send it (SPEC.md C-17).
 */
export const EMOTIONS = [
  'happy',
  'sad',
  'angry',
  'fearful',
  'surprised',
  'excited',
  'calm',
  'neutral',
] as const;
export type Emotion = (typeof EMOTIONS)[number];

export const GESTURES = [
  'greeting',
  'kneeling',
  'nodding',
  'shaking',
  'thinking',
  'celebration',
  'comforting',
  'surprise',
  'angry',
  'laughing',
  'clapping',
  'goodbye',
] as const;
export type Gesture = (typeof GESTURES)[number];

/** Spec §9 emotion-to-mood map (personalities carry a mood of their own). */
export const MOOD_BY_EMOTION = {
  happy: 'warm',
  excited: 'energetic',
  calm: 'serene',
  sad: 'melancholic',
  angry: 'intense',
  fearful: 'tense',
  // Not in spec §9's map: surprise is open attention, neither tense nor energetic (SPEC.md C-17).
  surprised: 'curious',
  neutral: 'default',
  creative: 'artistic',
  technical: 'precise',
  formal: 'professional',
} as const;
export type Mood = (typeof MOOD_BY_EMOTION)[keyof typeof MOOD_BY_EMOTION];

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
/** Only the free plan can be chosen while payments are in maintenance (spec §1, §5). */
export const REGISTRATION_PLANS: readonly Plan[] = ['free'];

export const PASSWORD_MIN_LENGTH = 6;
export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 80;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 256;
export const BIO_MAX_LENGTH = 500;

export const MESSAGE_MAX_LENGTH = 4000;
export const SESSION_TITLE_MAX_LENGTH = 120;
export const MESSAGE_PAGE_SIZE = 50;
export const MESSAGE_PAGE_SIZE_MAX = 200;
export const CLIENT_MESSAGE_ID_MAX_LENGTH = 64;
/** Key points a session's context keeps: the latest ones (SPEC.md C-11). */
export const CONTEXT_KEY_POINTS_MAX = 10;
/** An automatic title (SPEC.md C-12) is at most this long. */
export const AUTO_TITLE_MAX_LENGTH = 60;

/** Client behaviour constants (spec §9). */
export const HEALTH_TIMEOUT_MS = 3000;
export const API_RETRY_COUNT = 2;
/** Delay before retry n (1-based) is n × this: 1 s then 2 s. */
export const API_RETRY_BASE_DELAY_MS = 1000;
export const HISTORY_LOAD_THRESHOLD_PX = 60;
export const NEAR_BOTTOM_THRESHOLD_PX = 100;
export const TOAST_DURATION_MS = 3500;
export const REDIRECT_DELAY_MS = 1000;
export const CHAT_OVERLAY_BREAKPOINT_PX = 1023;
export const VIEWER_BREAKPOINT_PX = 768;
export const SWIPE_CANCEL_PX = 50;
export const SWIPE_CLOSE_PX = 120;
export const ANIMATION_INTENT_DURATION_MS = 3000;
export const ANIMATION_INTENT_TAIL_MS = 1000;

/** 3D viewer (spec §8, §9). */
export const VIEWER_MAX_CANVAS = { width: 600, height: 500 } as const;
export const VIEWER_MAX_CANVAS_MOBILE = { width: 320, height: 240 } as const;
export const VIEWER_ZOOM = { min: 1.5, max: 8 } as const;
export const VIEWER_ZOOM_MOBILE = { min: 2, max: 6 } as const;
export const VIEWER_MAX_CONTEXTS = 4;
export const DEFAULT_MODEL_SCALE = 1.2;
export const DEFAULT_MODEL_Y_OFFSET = -1.2;

/** Avatar animation (spec §4, §9). */
export const ANIMATION_MAX_WORKERS = 8;
export const ANIMATION_REQUEST_TIMEOUT_MS = 1000;
export const ANIMATION_CACHE_CLEANUP_MS = 5 * 60 * 1000;
export const ANIMATION_RESPONSE_TIMES_KEPT = 100;
export const ANIMATION_MAX_UPDATES_PER_SECOND = 60;
export const BONE_ROTATION_CLAMP = 2;
export const BONE_ROTATION_CLAMP_ADDITIVE = 0.1;
export const LEG_ROTATION_CLAMP = 0.5;
export const IDLE_SPEAKING_BLEND_S = 0.3;
export const RETURN_TO_BASE_AFTER_GESTURE_MS = 1000;
export const RETURN_TO_BASE_AFTER_SPEECH_MS = 500;
export const RETURN_TO_BASE_TRANSITION_S = 0.8;
export const RETURN_TO_BASE_MIN_INTERVAL_MS = 2000;

/** How long socket.io keeps a disconnected client's missed events (ARCHITECTURE §2). */
export const CONNECTION_RECOVERY_MS = 2 * 60 * 1000;
