import { ServerEvent } from '@alma/protocol';
import { Server } from 'socket.io';
import { describe, expect, it, vi } from 'vitest';
import { roomTargets } from './publisher.ts';

describe('roomTargets', () => {
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
