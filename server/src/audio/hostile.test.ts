import { beforeAll, describe, expect, it } from 'vitest';
import { hostileAudioCorpus, type HostileAudio } from '../test-support/hostile-audio.ts';
import { decodeSample } from '../modules/voice-uploads/sample-audio.ts';
import { AudioDecodeError } from './errors.ts';
import { decodeVoiceNote } from './voice-note.ts';

/**
 * The hostile corpus through the audio module itself (issue 11; SPEC.md V-2, VU-2): every file is
 * refused with the code its route answers, and within the test's time limit — a file that made a
 * demuxer loop would fail here by time-out. The routes and the socket are tested with the same
 * corpus in voice-uploads.routes.test.ts and tests/socket/hostile-audio.test.ts.
 */
let corpus: HostileAudio[] = [];
beforeAll(async () => {
  corpus = await hostileAudioCorpus();
}, 60_000);

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) =>
      error instanceof AudioDecodeError || (error instanceof Error && 'code' in error)
        ? (error as { code: string }).code
        : String(error),
  );

describe('hostile audio is refused by the decoder, with the reason', () => {
  it('builds a corpus of every kind', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(25);
  });

  it('V-2 as a voice note: each file refused with its code', async () => {
    const answers = [];
    for (const entry of corpus) answers.push([entry.name, await codeOf(decodeVoiceNote(entry.data))]);
    expect(Object.fromEntries(answers)).toEqual(Object.fromEntries(corpus.map((e) => [e.name, e.note.code])));
  });

  it('VU-2 as a voice sample: each file refused with its code', async () => {
    const answers = [];
    for (const entry of corpus) answers.push([entry.name, await codeOf(decodeSample(entry.data, undefined))]);
    expect(Object.fromEntries(answers)).toEqual(
      Object.fromEntries(corpus.map((e) => [e.name, e.upload.code])),
    );
  });
});
