/** What services need of a logger (pino's shape), so they never import Fastify. */
export interface Log {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}
