import { onDemand } from '../../lib/on-demand.ts';

/** The auth screens' talk with the server and their field rules, on demand (./client.ts). */
export const authClient = onDemand(() => import('./client.ts'));

/** A failure's text: the server's message when the client could load, else `fallback`. */
export async function failureText(error: unknown, fallback: string): Promise<string> {
  return authClient.get().then(
    ({ errorText }) => errorText(error, fallback),
    () => fallback,
  );
}
