/**
 * The emit-batch bench's clients (emit-batch-bench.ts), in a process of their own so that reading
 * their frames takes none of the measured thread: `tsx emit-batch-clients.ts <url> <count>`
 * connects `count` light socket.io clients (wire-client.ts), says `ready`, then reports how many
 * events they have read every 100 ms.
 */
import { WireSocket } from './wire-client.ts';

const [url, count] = [process.argv[2]!, Number(process.argv[3])];
const sockets = await Promise.all(Array.from({ length: count }, () => WireSocket.connect(url, {})));
let events = 0;
for (const socket of sockets) socket.onAny(() => void events++);
process.send?.('ready');
setInterval(() => process.send?.(events), 100);
