import { describe, expect, it } from 'vitest';
import { ServerEvent } from '@alma/protocol';
import { initialConversation, reduceConversation, type ConversationData } from '../model/conversation.ts';
import { localMessageId } from '../model/messages.ts';

const cid = '11111111-1111-4111-8111-111111111111';

function withPlaceholder(): ConversationData {
  return {
    ...initialConversation,
    messages: [
      {
        id: localMessageId(cid),
        type: 'user',
        content: '',
        contentKey: 'voiceNote.placeholder',
        timestamp: new Date().toISOString(),
        clientMessageId: cid,
        sending: true,
        voiceNote: { progress: 30, real: false },
      },
    ],
  };
}

describe('chat:transcription (SPEC.md V-4)', () => {
  it('real progress replaces the simulated one and never goes back', () => {
    const s1 = reduceConversation(withPlaceholder(), {
      name: ServerEvent.chatTranscription,
      payload: { clientMessageId: cid, progress: 50 },
    });
    expect(s1.messages[0]?.voiceNote).toEqual({ progress: 50, real: true });
    const s2 = reduceConversation(s1, {
      name: ServerEvent.chatTranscription,
      payload: { clientMessageId: cid, progress: 10 },
    });
    expect(s2.messages[0]?.voiceNote?.progress).toBe(50);
  });

  it('the text at 100 becomes the message content', () => {
    const s = reduceConversation(withPlaceholder(), {
      name: ServerEvent.chatTranscription,
      payload: { clientMessageId: cid, progress: 100, text: 'hola' },
    });
    expect(s.messages[0]).toMatchObject({
      content: 'hola',
      contentKey: undefined,
      voiceNote: { progress: 100 },
    });
  });

  it('progress for an unknown note changes nothing', () => {
    const state = withPlaceholder();
    const s = reduceConversation(state, {
      name: ServerEvent.chatTranscription,
      payload: { clientMessageId: 'other', progress: 50 },
    });
    expect(s).toBe(state);
  });
});
