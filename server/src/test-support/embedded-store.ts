import type { NewUser } from '../storage/records.ts';
import type { Storage } from '../storage/types.ts';

/** A user for storage tests: Ana, on the free plan; `fields` override. */
export const testUser = (fields: Partial<NewUser> = {}): NewUser => ({
  id: 'user-1',
  email: 'ana@example.com',
  name: 'Ana',
  passwordHash: 'x',
  plan: 'free',
  role: 'user',
  language: 'es',
  theme: 'dark',
  createdAt: new Date(0).toISOString(),
  ...fields,
});

/**
 * Whether `read` is answered later than the main thread could answer it: by the embedded store's
 * reader thread. A read answered on the main thread is settled within a few microtask turns (the
 * driver is synchronous); one asked of the thread is still pending then.
 */
export async function answeredLater<T>(read: Promise<T>): Promise<boolean> {
  let settled = false;
  read.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return !settled;
}

/** Asks reads together until the reader thread answers them (it starts on the first `together`). */
export async function readerThreadReady(storage: Storage, userId: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const read = storage.readTogether(() => storage.users.findById(userId));
    if (await answeredLater(read)) return void (await read);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the reader thread never answered');
}
