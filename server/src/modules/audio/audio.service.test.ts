import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from '../../storage/embedded/index.ts';
import { createDiskBlobStore, createLayeredBlobStore } from '../../storage/blobs.ts';
import { silentLog } from '../../test-support/chat-harness.ts';
import { createAudioService } from './audio.service.ts';

const dir = mkdtempSync(join(tmpdir(), 'alma-audio-sweep-'));
const storage = openEmbeddedStorage({ file: join(dir, 'alma.db') });
afterAll(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the retention sweep over GridFS and the older folder (S-7, M-8)', () => {
  it('removes old files from both layers and keeps recent ones', async () => {
    const now = new Date('2026-11-28T12:00:00Z');
    const eightDaysAgo = new Date(now.getTime() - 8 * 24 * 3600 * 1000);
    const [newer, older] = [
      createDiskBlobStore(join(dir, 'gridfs')),
      createDiskBlobStore(join(dir, 'audio')),
    ];
    const write = async (folder: 'gridfs' | 'audio', name: string, at: Date) => {
      await (folder === 'gridfs' ? newer : older).put(name, new Uint8Array([1]));
      utimesSync(join(dir, folder, name), at, at);
    };
    await write('audio', 'old-1.mp3', eightDaysAgo);
    await write('audio', 'old-2.mp3', eightDaysAgo);
    await write('gridfs', 'old-2.mp3', eightDaysAgo);
    await write('gridfs', 'new-1.mp3', now);
    await write('audio', 'new-2.mp3', now);

    const audio = createAudioService({
      files: createLayeredBlobStore(newer, older),
      messages: storage.messages,
      clock: () => now,
      log: silentLog,
      retentionDays: 7,
    });
    expect(await audio.sweep()).toBe(2);
    expect((await newer.list()).map((b) => b.name)).toEqual(['new-1.mp3']);
    expect((await older.list()).map((b) => b.name)).toEqual(['new-2.mp3']);
  });
});
