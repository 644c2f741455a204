import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS } from '@alma/protocol';
import { toast, useToasts } from './toast.ts';

describe('toasts (spec §2: auto-dismiss after 3.5 s)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useToasts.setState({ toasts: [] });
  });
  afterEach(() => vi.useRealTimers());

  it('stays for TOAST_DURATION_MS and then goes', () => {
    expect(TOAST_DURATION_MS).toBe(3500);
    toast('Exported', 'success');
    expect(useToasts.getState().toasts).toMatchObject([{ text: 'Exported', kind: 'success' }]);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(useToasts.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(useToasts.getState().toasts).toHaveLength(0);
  });

  it('times each toast on its own, and a dismissed one does not fire later', () => {
    const first = toast('one');
    vi.advanceTimersByTime(2000);
    toast('two', 'error');
    useToasts.getState().dismiss(first);
    expect(useToasts.getState().toasts.map((t) => t.text)).toEqual(['two']);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(useToasts.getState().toasts.map((t) => t.text)).toEqual(['two']);
    vi.advanceTimersByTime(1);
    expect(useToasts.getState().toasts).toEqual([]);
  });
});
