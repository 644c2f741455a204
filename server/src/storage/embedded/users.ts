import type Database from 'libsql';
import { newUserRecord, normalizeEmail, pickUser } from '../shared.ts';
import { DuplicateKeyError, type UserRecord, type UserRepository } from '../types.ts';
import { prepare, toBoolean, toInteger, violatedConstraint } from './sql.ts';

type UserRow = Omit<UserRecord, 'emailNotifications' | 'pushNotifications'> & {
  emailNotifications: number;
  pushNotifications: number;
};

/** Aliased to the field names of `UserRecord`, so a row maps by converting types only. */
const COLUMNS = `id, name, email, password_hash AS passwordHash, bio, language, theme,
  email_notifications AS emailNotifications, push_notifications AS pushNotifications, plan, role,
  avatar, stripe_customer_id AS stripeCustomerId, created_at AS createdAt`;

function fromRow(row: unknown): UserRecord | null {
  if (row === undefined) return null;
  const user = row as UserRow;
  return pickUser({
    ...user,
    emailNotifications: toBoolean(user.emailNotifications),
    pushNotifications: toBoolean(user.pushNotifications),
  });
}

export function createUserRepository(db: Database.Database): UserRepository {
  const insert = prepare(
    db,
    `INSERT INTO users (id, name, email, password_hash, bio, language, theme, email_notifications,
       push_notifications, plan, role, avatar, stripe_customer_id, created_at)
     VALUES (@id, @name, @email, @passwordHash, @bio, @language, @theme, @emailNotifications,
       @pushNotifications, @plan, @role, @avatar, @stripeCustomerId, @createdAt)`,
  );
  const byId = prepare(db, `SELECT ${COLUMNS} FROM users WHERE id = @id`);
  const byEmail = prepare(db, `SELECT ${COLUMNS} FROM users WHERE email = @email`);

  return {
    async create(user) {
      const record = newUserRecord(user);
      try {
        insert.run({
          ...record,
          emailNotifications: toInteger(record.emailNotifications),
          pushNotifications: toInteger(record.pushNotifications),
        });
      } catch (error) {
        const constraint = violatedConstraint(error);
        // Email is the table's only unique column besides the key.
        if (constraint === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError('email');
        if (constraint === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new DuplicateKeyError('id');
        throw error;
      }
      return record;
    },
    async findById(id) {
      return fromRow(byId.get({ id }));
    },
    async findByEmail(email) {
      return fromRow(byEmail.get({ email: normalizeEmail(email) }));
    },
  };
}
