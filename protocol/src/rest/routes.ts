import { accountRoutes, paymentRoutes } from './account.ts';
import { audioRoutes } from './audio.ts';
import { avatarUploadRoutes } from './avatar-uploads.ts';
import { avatarRoutes } from './avatars.ts';
import { authRoutes } from './auth.ts';
import { chatRoutes } from './chat.ts';
import { healthRoutes } from './health.ts';
import { voiceNoteRoutes } from './voice-notes.ts';
import { voiceUploadRoutes } from './voice-uploads.ts';
import { voicesRoutes } from './voices.ts';

/** Every REST route, by domain. Later issues add their domains here. */
export const routes = {
  auth: authRoutes,
  account: accountRoutes,
  payment: paymentRoutes,
  health: healthRoutes,
  chat: chatRoutes,
  audio: audioRoutes,
  voices: voicesRoutes,
  voiceNotes: voiceNoteRoutes,
  voiceUploads: voiceUploadRoutes,
  avatars: avatarRoutes,
  avatarUploads: avatarUploadRoutes,
} as const;

export const allRoutes = [
  ...Object.values(authRoutes),
  ...Object.values(accountRoutes),
  ...Object.values(paymentRoutes),
  ...Object.values(healthRoutes),
  ...Object.values(chatRoutes),
  ...Object.values(audioRoutes),
  ...Object.values(voicesRoutes),
  // Not the multipart upload: the JSON fuzzer would only meet a 415 (like POST /message-audio).
  voiceUploadRoutes.list,
  voiceUploadRoutes.remove,
  ...Object.values(avatarRoutes),
  ...Object.values(avatarUploadRoutes),
];
