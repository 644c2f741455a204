import { ServerEvent } from '@alma/protocol';
import { Server } from 'socket.io';
import { describe, expect, it, vi } from 'vitest';
import { roomTargets } from './publisher.ts';

describe('roomTargets', () => {
  it("makes a room's target once and reuses it", () => {
    const to = vi.fn((room: string) => ({ room }));
    const target = roomTargets(to);
    const first = target('session:a');
    expect(target('session:a')).toBe(first);
    expect(target('user:b')).toEqual({ room: 'user:b' });
    expect(to).toHaveBeenCalledTimes(2);
  });

  it('keeps at most `max` rooms, the first used longest ago dropped first, and makes it again', () => {
    const to = vi.fn((room: string) => ({ room }));
    const target = roomTargets(to, 2);
    const a = target('a');
    target('b');
    target('c'); // drops a
    expect(target('b')).toEqual({ room: 'b' });
    expect(to).toHaveBeenCalledTimes(3);
    const again = target('a');
    expect(again).not.toBe(a);
    expect(again).toEqual({ room: 'a' });
    expect(to).toHaveBeenCalledTimes(4);
  });

  it("a socket.io room's one operator targets the room on every emit, sockets joining later included", () => {
    const io = new Server();
    const target = roomTargets((room) => io.to(room));
    const operator = target('session:x');
    expect(target('session:x')).toBe(operator);
    // What the adapter is given on each emit: the room, nothing excluded, no flags.
    const broadcast = vi.spyOn(io.of('/').adapter, 'broadcast');
    operator.emit(ServerEvent.chatDelta, { text: 'a' });
    operator.emit(ServerEvent.chatDelta, { text: 'b' });
    expect(broadcast).toHaveBeenCalledTimes(2);
    for (const [packet, opts] of broadcast.mock.calls) {
      expect([...opts.rooms]).toEqual(['session:x']);
      expect(opts.except?.size ?? 0).toBe(0);
      expect((packet as { data: unknown[] }).data[0]).toBe(ServerEvent.chatDelta);
    }
  });
});
