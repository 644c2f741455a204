import { describe, expect, it } from 'vitest';
import { parseTag, SIDE_CHANNEL_RULE, SideChannelParser, withSideChannel } from './side-channel.ts';
import type { ReplyChunk } from './types.ts';

/** Feeds the pieces one by one; returns what was shown, joined, and the tag read. */
function run(pieces: string[]) {
  const parser = new SideChannelParser();
  const shown = pieces.map((p) => parser.push(p));
  shown.push(parser.end());
  return { text: shown.join(''), shown, tag: parser.tag };
}

const chars = (text: string) => [...text];

describe('side channel tag parsing', () => {
  it('reads the tag at the start and strips it with its line break', () => {
    expect(run(['[[emotion=happy;gesture=nodding]]\nGreat to see you!'])).toMatchObject({
      text: 'Great to see you!',
      tag: { emotion: 'happy', gesture: 'nodding' },
    });
  });

  it('holds text back until the tag is complete, however it is split', () => {
    const result = run(chars('  [[emotion=sad;gesture=comforting]]\n\nI am sorry.'));
    expect(result.text).toBe('I am sorry.');
    expect(result.tag).toEqual({ emotion: 'sad', gesture: 'comforting' });
    // Nothing of the tag ever leaked into a visible piece.
    expect(result.shown.some((piece) => piece.includes('['))).toBe(false);
  });

  it('streams text at once when there is no tag', () => {
    const parser = new SideChannelParser();
    expect(parser.push('Hello ')).toBe('Hello ');
    expect(parser.push('there')).toBe('there');
    expect(parser.tag).toBeNull();
  });

  it('tolerates spacing, case, quotes and colons', () => {
    expect(parseTag(' Emotion: "CALM" ; gesture = Thinking ')).toEqual({
      emotion: 'calm',
      gesture: 'thinking',
    });
  });

  it('keeps unknown values apart from "none"', () => {
    expect(parseTag('emotion=joyful;gesture=none')).toEqual({ emotion: null, gesture: null });
    expect(parseTag('emotion=happy;gesture=dance')).toEqual({ emotion: 'happy', gesture: undefined });
    expect(parseTag('emotion=happy')).toEqual({ emotion: 'happy', gesture: undefined });
  });

  it('carries "surprised", which the rule offers the model (SPEC C-17)', () => {
    expect(SIDE_CHANNEL_RULE).toContain('surprised');
    expect(parseTag('emotion=surprised;gesture=surprise')).toEqual({
      emotion: 'surprised',
      gesture: 'surprise',
    });
  });

  it('removes a tag placed later in the reply too', () => {
    expect(run(['Well done! ', '[[emotion=excited;', 'gesture=clapping]]'])).toMatchObject({
      text: 'Well done! ',
      tag: { emotion: 'excited', gesture: 'clapping' },
    });
  });

  it('shows brackets that are not a tag', () => {
    expect(run(chars('Use a[0] and [[link]] or [x')).text).toBe('Use a[0] and [[link]] or [x');
    const unclosed = `[[${'x'.repeat(120)} and more`;
    expect(run(chars(unclosed)).text).toBe(unclosed);
  });
});

describe('withSideChannel', () => {
  async function* from(pieces: string[]) {
    yield* pieces;
  }
  async function collect(pieces: string[], signal = new AbortController().signal) {
    const out: ReplyChunk[] = [];
    for await (const chunk of withSideChannel(from(pieces), 'es', signal)) out.push(chunk);
    return out;
  }

  it('derives both from the text when there is no tag (Spanish)', async () => {
    const chunks = await collect(['¡Hola! ', 'Qué alegría verte, estoy muy feliz.']);
    expect(chunks.slice(0, 2)).toEqual([
      { type: 'text', text: '¡Hola! ' },
      { type: 'text', text: 'Qué alegría verte, estoy muy feliz.' },
    ]);
    expect(chunks[2]).toMatchObject({
      type: 'emotion',
      emotion: expect.stringMatching(/happy|excited/) as unknown,
    });
    expect(chunks[3]).toEqual({ type: 'gesture', gesture: 'greeting' });
  });

  it('takes the emotion from the tag and derives a missing gesture from it', async () => {
    const chunks = await collect(['[[emotion=sad]]', 'Lo siento mucho.']);
    expect(chunks).toEqual([
      { type: 'emotion', emotion: 'sad', intensity: 0.6, confidence: 0.8 },
      { type: 'text', text: 'Lo siento mucho.' },
      { type: 'gesture', gesture: 'comforting' },
    ]);
  });

  it('derives nothing when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await collect(['Hola'], controller.signal)).toEqual([]);
  });
});
