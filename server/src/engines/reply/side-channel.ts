import { EMOTIONS, GESTURES, type Emotion, type Gesture, type Language } from '@alma/protocol';
import { analyzeEmotion, chooseGesture } from '../analysis/emotion.ts';
import type { ReplyChunk } from './types.ts';

/**
 * The side channel through which a language model states its emotion and gesture: one tag,
 * `[[emotion=happy;gesture=nodding]]`, asked for at the start of the reply (see SIDE_CHANNEL_RULE).
 * The tag is never shown: text is held back from any `[[` until the tag closes, or until it clearly
 * is not one. Models don't always comply — the tag may be missing, late, malformed or name an
 * unknown value — so whatever the tag leaves out is derived from the reply's text at the end with
 * the same analysis the rest of the pipeline uses.
 */
export const SIDE_CHANNEL_RULE = [
  'Begin every reply with exactly one line of the form',
  '[[emotion=<emotion>;gesture=<gesture>]]',
  `where <emotion> is one of: ${EMOTIONS.join(', ')};`,
  `and <gesture> is one of: ${GESTURES.join(', ')}, or none.`,
  'Choose the emotion you express and a gesture that fits it. The line is hidden from the user;',
  'never mention it. Then write the reply itself on the next line.',
].join('\n');

/** A declared emotion carries no measured strength: a moderate one, trusted as the model's own. */
const DECLARED = { intensity: 0.6, confidence: 0.8 } as const;
const DECLARED_NEUTRAL = { intensity: 0.2, confidence: 0.8 } as const;

/** Longer than any valid tag with generous spacing; past it, `[[` was just text. */
const MAX_TAG_LENGTH = 96;

export interface SideChannelTag {
  emotion: Emotion | null;
  /** `null` when the model said `none`; undefined when it said nothing usable. */
  gesture: Gesture | null | undefined;
}

const EMOTION_SET: ReadonlySet<string> = new Set(EMOTIONS);
const GESTURE_SET: ReadonlySet<string> = new Set(GESTURES);

/** Reads the inside of `[[…]]`; null when it is not a side-channel tag at all. */
export function parseTag(inner: string): SideChannelTag | null {
  const emotion = /emotion\s*[=:]\s*"?([a-z]+)/i.exec(inner)?.[1]?.toLowerCase();
  const gesture = /gesture\s*[=:]\s*"?([a-z]+)/i.exec(inner)?.[1]?.toLowerCase();
  if (emotion === undefined && gesture === undefined) return null;
  return {
    emotion: emotion !== undefined && EMOTION_SET.has(emotion) ? (emotion as Emotion) : null,
    gesture:
      gesture === 'none'
        ? null
        : gesture !== undefined && GESTURE_SET.has(gesture)
          ? (gesture as Gesture)
          : undefined,
  };
}

/**
 * Incremental tag stripper: `push` each piece of model text, get back what may be shown now;
 * `end` flushes what was held back. Tags found anywhere are removed; the first one counts.
 */
export class SideChannelParser {
  private pending = '';
  /** No visible text yet: whitespace is held back, so a leading tag leaves no blank line. */
  private atStart = true;
  tag: SideChannelTag | null = null;

  push(piece: string): string {
    this.pending += piece;
    let visible = '';
    for (;;) {
      const open = this.pending.indexOf('[[');
      if (open === -1) {
        // A lone `[` at the very end may become `[[` with the next piece.
        const keep = this.pending.endsWith('[') ? 1 : 0;
        visible += this.pending.slice(0, this.pending.length - keep);
        this.pending = this.pending.slice(this.pending.length - keep);
        break;
      }
      visible += this.pending.slice(0, open);
      const close = this.pending.indexOf(']]', open + 2);
      if (close === -1) {
        if (this.pending.length - open > MAX_TAG_LENGTH) {
          // Not a tag after all: show the brackets and look again after them.
          visible += '[[';
          this.pending = this.pending.slice(open + 2);
          continue;
        }
        this.pending = this.pending.slice(open);
        break;
      }
      const parsed = parseTag(this.pending.slice(open + 2, close));
      if (parsed) {
        this.tag ??= parsed;
        let rest = this.pending.slice(close + 2);
        if (visible.trim() === '' && this.atStart) {
          visible = '';
          rest = rest.replace(/^[ \t]*\r?\n?/, '');
        }
        this.pending = rest;
      } else {
        visible += this.pending.slice(open, close + 2);
        this.pending = this.pending.slice(close + 2);
      }
    }
    return this.show(visible);
  }

  end(): string {
    const rest = this.pending;
    this.pending = '';
    return this.show(rest);
  }

  private show(text: string): string {
    if (!this.atStart) return text;
    const trimmed = text.replace(/^\s+/, '');
    if (trimmed !== '') this.atStart = false;
    return trimmed;
  }
}

/**
 * Turns a model's raw text stream into reply chunks: visible text, then the emotion and gesture
 * from the tag as soon as it is read, or derived from the whole text when the stream ends.
 * Emotion always comes before gesture (the chat service pairs a gesture with the latest emotion).
 * An aborted stream ends quietly without deriving anything.
 */
export async function* withSideChannel(
  pieces: AsyncIterable<string>,
  language: Language,
  signal: AbortSignal,
): AsyncGenerator<ReplyChunk> {
  const parser = new SideChannelParser();
  let text = '';
  let emotionSent: { emotion: Emotion; intensity: number } | null = null;
  let gestureSent = false;

  function* fromTag(): Generator<ReplyChunk> {
    const tag = parser.tag;
    if (!tag || emotionSent || tag.emotion === null) return;
    const strength = tag.emotion === 'neutral' ? DECLARED_NEUTRAL : DECLARED;
    emotionSent = { emotion: tag.emotion, intensity: strength.intensity };
    yield { type: 'emotion', emotion: tag.emotion, ...strength };
    if (tag.gesture !== undefined) {
      gestureSent = true;
      if (tag.gesture) yield { type: 'gesture', gesture: tag.gesture };
    }
  }

  for await (const piece of pieces) {
    if (signal.aborted) return;
    const visible = parser.push(piece);
    yield* fromTag();
    if (visible) {
      text += visible;
      yield { type: 'text', text: visible };
    }
  }
  if (signal.aborted) return;
  const rest = parser.end();
  if (rest) {
    text += rest;
    yield { type: 'text', text: rest };
  }

  if (!emotionSent) {
    const derived = analyzeEmotion(text, language);
    emotionSent = derived;
    yield { type: 'emotion', ...derived };
  }
  if (!gestureSent) {
    const declared = parser.tag?.gesture;
    const gesture = declared !== undefined ? declared : chooseGesture({ ...emotionSent, text });
    if (gesture) yield { type: 'gesture', gesture };
  }
}
