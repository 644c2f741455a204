import { AUDIO_URL_PREFIX, isAudioFileName } from '@alma/protocol';
import type { Clock } from '../../lib/ids.ts';
import type { Log } from '../../lib/logger.ts';
import type { BlobStore } from '../../storage/blobs.ts';
import type { MessageRepository } from '../../storage/types.ts';

/** The content type of an audio file, by its extension. */
export const AUDIO_CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  webm: 'audio/webm',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
};

export const audioContentType = (name: string): string =>
  AUDIO_CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** The file name in a stored `audioUrl` (`/audio/<file>`), or null for anything else. */
export function audioFileOf(audioUrl: string): string | null {
  if (!audioUrl.startsWith(AUDIO_URL_PREFIX)) return null;
  const name = audioUrl.slice(AUDIO_URL_PREFIX.length);
  return isAudioFileName(name) ? name : null;
}

export interface AudioServiceDeps {
  files: BlobStore;
  messages: MessageRepository;
  clock: Clock;
  log: Log;
  /** Files older than this are removed by `sweep` (SPEECH_RETENTION_DAYS). */
  retentionDays: number;
}

/** Reply audio files: existence checks, the user's cleanup and the retention sweep (SPEC.md S-4…S-7). */
export function createAudioService(deps: AudioServiceDeps) {
  const { files, messages } = deps;
  /**
   * Removes files written more than `retentionDays` ago (S-7). Messages keep their `audioUrl`:
   * the check then answers `exists: false` and the client shows "removed by automatic cleanup".
   */
  async function sweep(): Promise<number> {
    const cutoff = deps.clock().getTime() - deps.retentionDays * 24 * 3600 * 1000;
    let removed = 0;
    for (const info of await files.list()) {
      if (info.createdAt.getTime() < cutoff && (await files.delete(info.name))) removed += 1;
    }
    if (removed > 0) deps.log.info({ removed, retentionDays: deps.retentionDays }, 'audio retention sweep');
    return removed;
  }

  return {
    files,

    /** Whether `name` is the audio of one of the user's messages and is still stored (S-5). */
    async exists(userId: string, name: string): Promise<boolean> {
      if (!isAudioFileName(name)) return false;
      if (!(await messages.findByAudioUrl(userId, `${AUDIO_URL_PREFIX}${name}`))) return false;
      return (await files.stat(name)) !== null;
    },

    /** Removes every audio file of the user's messages and clears their `audioUrl` (S-6). */
    async cleanupAll(userId: string): Promise<{ deletedFiles: number; clearedMessages: number }> {
      const names = new Set(
        (await messages.audioUrls(userId)).map(audioFileOf).filter((n): n is string => n !== null),
      );
      // The URLs first: a file is never referenced after its removal was reported.
      const clearedMessages = await messages.clearAudioUrls(userId);
      let deletedFiles = 0;
      for (const name of names) if (await files.delete(name)) deletedFiles += 1;
      return { deletedFiles, clearedMessages };
    },

    sweep,

    /** Runs `sweep` now and every `intervalMin`; the returned function stops it. */
    startRetention(intervalMin: number): () => void {
      const run = () => {
        sweep().catch((err: unknown) => deps.log.error({ err }, 'audio retention sweep failed'));
      };
      run();
      const timer = setInterval(run, intervalMin * 60_000);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export type AudioService = ReturnType<typeof createAudioService>;
