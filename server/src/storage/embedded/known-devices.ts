import type Database from 'libsql';
import type { KnownDeviceRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare } from './sql.ts';

export function createKnownDeviceRepository(
  db: Database.Database,
  { write }: GroupCommit,
): KnownDeviceRepository {
  const read = prepare(
    db,
    'SELECT signed_in_at AS at FROM known_devices WHERE key = @key AND expires_at > @now',
  );
  const upsert = prepare(
    db,
    `INSERT INTO known_devices (key, signed_in_at, expires_at) VALUES (@key, @at, @expiresAt)
     ON CONFLICT (key) DO UPDATE SET signed_in_at = excluded.signed_in_at, expires_at = excluded.expires_at`,
  );
  const purge = prepare(db, 'DELETE FROM known_devices WHERE expires_at <= @at');

  return {
    async lastSignIn(key, now) {
      const row = read.get({ key, now }) as { at: number } | undefined;
      return row === undefined ? null : row.at;
    },
    async recordSignIn(key, at, expiresAt) {
      await write(() => {
        purge.run({ at });
        upsert.run({ key, at, expiresAt });
      });
    },
  };
}
