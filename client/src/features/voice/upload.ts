import { routes, type RouteResponse } from '@alma/protocol';
import { UploadError, uploadMultipart } from '../../lib/upload.ts';

/** What the panel keeps of `POST /api/upload/voice`'s answer (its schema in protocol). */
export type VoiceUploadResult = Pick<RouteResponse<typeof routes.voiceUploads.upload>, 'voice' | 'warnings'>;

/** A refusal from the server: its code and the spec's text in the caller's language. */
export { UploadError as VoiceUploadError };

export interface UploadVoiceOptions {
  file: File;
  name?: string;
  language: string;
  token: string | null;
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
  /** Shown for a failure without a server answer ("Error uploading voice", spec §8). */
  failedText: string;
}

/** `POST /api/upload/voice` as multipart with the consent the panel required (SPEC.md VU-1). */
export async function uploadVoice(options: UploadVoiceOptions): Promise<VoiceUploadResult> {
  const route = routes.voiceUploads.upload;
  const fields: Record<string, string> = { consent: 'true' };
  if (options.name?.trim()) fields.name = options.name.trim();
  fields.language = options.language === 'en' ? 'en' : 'es';
  const body = await uploadMultipart({
    path: route.path,
    fields,
    fileField: 'voice',
    file: options.file,
    token: options.token,
    language: options.language,
    response: route.response,
    onProgress: options.onProgress,
    ...(options.signal ? { signal: options.signal } : {}),
    failedText: options.failedText,
  });
  return { voice: body.voice, warnings: body.warnings };
}
