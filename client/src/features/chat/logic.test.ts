import { describe, expect, it } from 'vitest';
import type { SessionContext } from '@alma/protocol';
import {
  contextView,
  dragCloses,
  dragOffset,
  sheetAfterDrag,
  isAwayFromBottom,
  keptScrollTop,
  matchesSearch,
  shouldLoadOlder,
} from './logic.ts';

const context: SessionContext = {
  sessionId: 's1',
  summary: 'Conversation with Sam. Topics: new job.',
  topics: ['new job', 'exam'],
  entities: { names: ['Sam', 'Ana'] },
  keyPoints: ['one', 'two', 'three', 'four', 'five'],
  dominantEmotion: 'happy',
};

describe('context panel (spec §2: summary, topics, people, the last 3 key points)', () => {
  it('shows the last three key points, oldest of them first', () => {
    const view = contextView(context);
    expect(view.keyPoints).toEqual(['three', 'four', 'five']);
    expect(view.people).toEqual(['Sam', 'Ana']);
    expect(view.topics).toEqual(['new job', 'exam']);
    expect(view.summary).toBe('Conversation with Sam. Topics: new job.');
    expect(view.hasContent).toBe(true);
  });

  it('has nothing to show for a new conversation', () => {
    expect(contextView(null).hasContent).toBe(false);
    expect(
      contextView({ ...context, summary: ' ', topics: [], entities: { names: [] }, keyPoints: [] })
        .hasContent,
    ).toBe(false);
  });
});

describe('history paging (spec §4 History, §9: 60 px, 100 px)', () => {
  const page = { hasMore: true, loading: false };
  it('loads the next page within 60 px of the top only', () => {
    expect(shouldLoadOlder({ scrollTop: 60, scrollHeight: 3000, clientHeight: 500 }, page)).toBe(true);
    expect(shouldLoadOlder({ scrollTop: 61, scrollHeight: 3000, clientHeight: 500 }, page)).toBe(false);
    expect(
      shouldLoadOlder({ scrollTop: 0, scrollHeight: 3000, clientHeight: 500 }, { ...page, hasMore: false }),
    ).toBe(false);
    expect(
      shouldLoadOlder({ scrollTop: 0, scrollHeight: 3000, clientHeight: 500 }, { ...page, loading: true }),
    ).toBe(false);
  });

  it('keeps the message on screen where it was when older ones are added above', () => {
    // 1200 px of older messages arrive while the reader is 40 px from the top.
    expect(keptScrollTop({ scrollTop: 40, scrollHeight: 3000 }, 4200)).toBe(1240);
    expect(keptScrollTop({ scrollTop: 0, scrollHeight: 3000 }, 3000)).toBe(0);
  });

  it('shows the new-messages button past 100 px from the bottom', () => {
    expect(isAwayFromBottom({ scrollTop: 2400, scrollHeight: 3000, clientHeight: 500 })).toBe(false);
    expect(isAwayFromBottom({ scrollTop: 2399, scrollHeight: 3000, clientHeight: 500 })).toBe(true);
  });
});

describe('overlay drag-to-close (spec §2, §9: more than 120 px)', () => {
  it('follows the finger downwards only', () => {
    expect(dragOffset(300, 380)).toBe(80);
    expect(dragOffset(300, 250)).toBe(0);
  });

  it('closes past 120 px and snaps back at 120 or less', () => {
    expect(dragCloses(100, 221)).toBe(true);
    expect(dragCloses(100, 220)).toBe(false);
    expect(dragCloses(100, 40)).toBe(false);
  });
});

describe('chat sheet snapping (SPEC.md ST-4)', () => {
  it('from half: more than 120 px down closes, more than 60 px up grows to full, else stays', () => {
    expect(sheetAfterDrag('half', 300, 421)).toBe('closed');
    expect(sheetAfterDrag('half', 300, 420)).toBe('half');
    expect(sheetAfterDrag('half', 300, 239)).toBe('full');
    expect(sheetAfterDrag('half', 300, 240)).toBe('half');
  });

  it('from full: more than 120 px down returns to half, never straight to closed', () => {
    expect(sheetAfterDrag('full', 100, 221)).toBe('half');
    expect(sheetAfterDrag('full', 100, 700)).toBe('half');
    expect(sheetAfterDrag('full', 100, 220)).toBe('full');
    expect(sheetAfterDrag('full', 100, 20)).toBe('full');
  });
});

describe('personality menu search (spec §2 "personality menu with search")', () => {
  it('matches any shown text, case-insensitively; an empty query matches all', () => {
    const texts = ['Formal', 'Polite and measured', undefined];
    expect(matchesSearch('', texts)).toBe(true);
    expect(matchesSearch('  MEASURED ', texts)).toBe(true);
    expect(matchesSearch('playful', texts)).toBe(false);
  });
});
