import {
  HISTORY_LOAD_THRESHOLD_PX,
  NEAR_BOTTOM_THRESHOLD_PX,
  SWIPE_CLOSE_PX,
  type SessionContext,
} from '@alma/protocol';

/**
 * The chat screen's small rules as plain functions (spec §2, §4, §9), so they are tested without
 * a browser: what the context panel shows, when history pages load and how the view stays put,
 * and when a drag closes the overlay.
 */

/** Key points the context panel shows: the last three (spec §2). */
export const CONTEXT_PANEL_KEY_POINTS = 3;

export interface ContextView {
  summary: string;
  topics: string[];
  people: string[];
  keyPoints: string[];
  /** False when there is nothing to show yet (a new conversation). */
  hasContent: boolean;
}

export function contextView(context: SessionContext | null): ContextView {
  if (!context) return { summary: '', topics: [], people: [], keyPoints: [], hasContent: false };
  const summary = context.summary.trim();
  const keyPoints = context.keyPoints.slice(-CONTEXT_PANEL_KEY_POINTS);
  return {
    summary,
    topics: context.topics,
    people: context.entities.names,
    keyPoints,
    hasContent:
      summary.length > 0 ||
      context.topics.length > 0 ||
      context.entities.names.length > 0 ||
      keyPoints.length > 0,
  };
}

export interface ScrollMetrics {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export function distanceFromBottom(m: ScrollMetrics): number {
  return m.scrollHeight - m.scrollTop - m.clientHeight;
}

/** Spec §4 History: within 60 px of the top, the next (older) page loads. */
export function shouldLoadOlder(m: ScrollMetrics, state: { hasMore: boolean; loading: boolean }): boolean {
  return state.hasMore && !state.loading && m.scrollTop <= HISTORY_LOAD_THRESHOLD_PX;
}

/** Spec §2: the new-messages button shows when more than 100 px up from the bottom. */
export function isAwayFromBottom(m: ScrollMetrics): boolean {
  return distanceFromBottom(m) > NEAR_BOTTOM_THRESHOLD_PX;
}

/**
 * After older messages are put above the ones on screen, the scroll offset that keeps the same
 * message at the same place: everything moved down by the height that was added.
 */
export function keptScrollTop(
  before: { scrollTop: number; scrollHeight: number },
  afterHeight: number,
): number {
  return Math.max(0, before.scrollTop + (afterHeight - before.scrollHeight));
}

/** How far the overlay follows a drag: down only, never up past its resting place. */
export function dragOffset(startY: number, currentY: number): number {
  return Math.max(0, currentY - startY);
}

/** Spec §2/§9: dragging the chat overlay down more than 120 px closes it; less snaps back. */
export function dragCloses(startY: number, endY: number): boolean {
  return dragOffset(startY, endY) > SWIPE_CLOSE_PX;
}

/** The chat sheet's resting heights on narrow screens (SPEC.md ST-4). */
export type SheetSize = 'half' | 'full';

/** An upward drag longer than this grows the half sheet to full. */
export const SHEET_GROW_PX = 60;

/**
 * Where the chat sheet rests after a drag of its handle (SPEC.md ST-4): from half, more than
 * 120 px down closes it (spec §2) and more than 60 px up makes it full; from full, more than
 * 120 px down brings it back to half. Anything shorter snaps back.
 */
export function sheetAfterDrag(size: SheetSize, startY: number, endY: number): SheetSize | 'closed' {
  const down = endY - startY;
  if (size === 'full') return down > SWIPE_CLOSE_PX ? 'half' : 'full';
  if (dragCloses(startY, endY)) return 'closed';
  return -down > SHEET_GROW_PX ? 'full' : 'half';
}

/** The personality menu's search: case-insensitive over every text shown for a personality. */
export function matchesSearch(query: string, texts: readonly (string | undefined)[]): boolean {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return true;
  return texts.some((text) => text?.toLocaleLowerCase().includes(q));
}
