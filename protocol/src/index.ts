export * from './version.ts';
export * from './constants.ts';
export * from './errors.ts';
export * from './messages.ts';
export * from './entities.ts';
export * from './rest/define-route.ts';
export * from './rest/auth.ts';
export * from './rest/account.ts';
export * from './plans.ts';
export * from './rest/health.ts';
export * from './rest/chat.ts';
export * from './rest/audio.ts';
export * from './rest/voice-notes.ts';
export * from './rest/voices.ts';
export * from './rest/voice-uploads.ts';
export * from './rest/avatars.ts';
export * from './rest/avatar-uploads.ts';
export * from './rig.ts';
export {
  ALL_CANONICAL_BONES,
  isMixamoName,
  matchBones,
  matchMorphs,
  morphKey,
  type NamedBone,
} from './rig-names.ts';
export * from './rig-judge.ts';
export * from './avatar-model.ts';
export * from './gltf-issues.ts';
export * from './rest/routes.ts';
export * from './socket/chat.ts';
export * from './socket/auth.ts';
export * from './socket/events.ts';
