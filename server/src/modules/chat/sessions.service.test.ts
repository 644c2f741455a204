import { describe, expect, it } from 'vitest';
import {
  chat,
  engine,
  eventsOf,
  exchange,
  published,
  stored,
  useChatHarness,
  userId,
} from '../../test-support/chat-harness.ts';

/** What each stored exchange leaves in its session: the context, the emotion, the title (C-11, C-12). */
useChatHarness();

describe('C-11 conversation context', () => {
  it('is stored and updated every exchange, and the previous one is passed to the engine', async () => {
    const first = await exchange('¡Hola! Me llamo Lucía');
    const sessionId = first.sent.session.sessionId;
    const second = await exchange('Mañana tengo mi examen de historia y estoy nerviosa', sessionId);
    const third = await exchange('Mi amiga Sara me ayuda a estudiar para el examen', sessionId);

    // The engine sees the context as it was before each exchange.
    expect(engine.requests[0]?.context).toBeUndefined();
    expect(engine.requests[1]?.context).toMatchObject({ names: ['Lucía'], dominantEmotion: 'happy' });
    expect(engine.requests[2]?.context).toMatchObject({ names: ['Lucía'], topics: ['examen'] });

    const contexts = [first, second, third].map((e) => stored(e.outcome).reply.sessionContext);
    expect(contexts.map((c) => c.entities.names)).toEqual([['Lucía'], ['Lucía'], ['Lucía', 'Sara']]);
    expect(contexts[2]).toMatchObject({
      sessionId,
      topics: ['examen'],
      keyPoints: [
        'Me llamo Lucía',
        'Mañana tengo mi examen de historia y estoy nerviosa',
        'Mi amiga Sara me ayuda a estudiar para el examen',
      ],
      dominantEmotion: 'happy',
    });
    expect(contexts[2]?.summary).toBe(
      'Conversación con Lucía (3 intercambios). Temas: examen. Personas: Sara. Tono: alegre.',
    );

    // Stored, not derived: the context route and the session list read the same.
    expect(await chat.sessions.context(userId, sessionId)).toEqual(contexts[2]);
    expect((await chat.sessions.list(userId))[0]?.dominantEmotion).toBe('happy');
  });

  it('keeps the dominant emotion as a decayed score: recent, intense emotions lead', async () => {
    const { sent } = await exchange('Hola');
    const sessionId = sent.session.sessionId;
    engine.emotion = { emotion: 'sad', intensity: 0.9, confidence: 0.8 };
    const sad = stored((await exchange('Estoy triste', sessionId)).outcome);
    expect(sad.reply.sessionContext.dominantEmotion).toBe('sad');
    engine.emotion = { emotion: 'calm', intensity: 0.3, confidence: 0.8 };
    const calm1 = stored((await exchange('Ya estoy mejor', sessionId)).outcome);
    // 0.9 decays to 0.63 against calm's 0.3: sadness still leads...
    expect(calm1.reply.sessionContext.dominantEmotion).toBe('sad');
    for (let i = 0; i < 3; i++) await exchange(`Más tranquila ${i}`, sessionId);
    // ...until a few calmer replies outweigh it.
    expect((await chat.sessions.context(userId, sessionId)).dominantEmotion).toBe('calm');
  });
});

describe('C-12 auto-title', () => {
  it('titles the session after the first exchange in its language and announces it as renamed, once', async () => {
    const { sent, outcome } = await exchange('Mañana tengo mi examen de historia y estoy nerviosa');
    const renamed = eventsOf('session:updated').filter((e) => e.kind === 'renamed');
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatchObject({ kind: 'renamed', session: { title: 'Tu examen de mañana' } });
    // After the reply, so a client has the reply before the new title.
    const order = published.map((p) => p.event);
    expect(order.indexOf('chat:reply')).toBeLessThan(order.lastIndexOf('session:updated'));
    expect(stored(outcome).reply.sessionId).toBe(sent.session.sessionId);

    await exchange('Gracias', sent.session.sessionId);
    expect(eventsOf('session:updated').filter((e) => e.kind === 'renamed')).toHaveLength(1);
  });

  it('titles English sessions in English, with the name the user gave', async () => {
    await exchange("Hi, I'm Sam and I got a new job!");
    expect((await chat.sessions.list(userId))[0]?.title).toBe("Sam's new job");
  });

  it('never overwrites a title the user set, at creation or by renaming', async () => {
    const created = await chat.sessions.create(userId, 'Mis cosas', 'default');
    await exchange('Mañana tengo mi examen', created.sessionId);
    const other = await chat.sessions.create(userId, null, 'default');
    await chat.sessions.rename(userId, other.sessionId, 'Renamed');
    await exchange('Mañana tengo mi examen', other.sessionId);
    const titles = (await chat.sessions.list(userId)).map((s) => s.title).sort();
    expect(titles).toEqual(['Mis cosas', 'Renamed']);
    expect(eventsOf('session:updated').filter((e) => e.kind === 'renamed')).toHaveLength(1); // the rename
  });
});
