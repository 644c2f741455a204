import type Database from 'libsql';

/**
 * The values libsql can bind. A JS boolean is not one of them, and binding one aborts the whole
 * process (libsql 0.5 panics in native code) instead of throwing; statements prepared through
 * `prepare` take only these, so the compiler refuses a boolean. Parameters are named (`@userId`):
 * a name missing from the object binds as NULL without complaint, so keep them beside their SQL.
 */
export type SqlValue = string | number | bigint | Buffer | null;
export type Params = Record<string, SqlValue>;
export type Statement = Database.Statement<Params>;

/** Rows from `.get()` carry an extra `_metadata` property: map them, never return them. */
export function prepare(db: Database.Database, sql: string): Statement {
  return db.prepare<Params>(sql);
}

export const toInteger = (value: boolean): 0 | 1 => (value ? 1 : 0);
export const toBoolean = (value: number): boolean => value === 1;

/** The SQLite constraint code a failed write broke (`SQLITE_CONSTRAINT_UNIQUE`, …), if it was one. */
export function violatedConstraint(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT') ? code : undefined;
}
