import type { Preferences } from '@alma/protocol';
import type Database from 'libsql';
import {
  chosenAvatar,
  newUserRecord,
  normalizeEmail,
  preferencesPatch,
  withDefaultPreferences,
} from '../shared.ts';
import { UserPatchSchema, UserRecordSchema, definedFields, readRecord } from '../records.ts';
import { DuplicateKeyError, type UserPatch, type UserRecord, type UserRepository } from '../types.ts';
import type { GroupCommit } from './group-commit.ts';
import { prepare, toBoolean, toInteger, violatedConstraint, type SqlValue } from './sql.ts';

type UserRow = Omit<UserRecord, 'emailNotifications' | 'pushNotifications' | 'emailVerified'> & {
  emailNotifications: number;
  pushNotifications: number;
  emailVerified: number;
};

/** Aliased to the field names of `UserRecord`, so a row maps by converting types only. */
const COLUMNS = `id, name, email, password_hash AS passwordHash, bio, language, theme,
  email_notifications AS emailNotifications, push_notifications AS pushNotifications, plan, role,
  avatar, stripe_customer_id AS stripeCustomerId, email_verified AS emailVerified,
  created_at AS createdAt`;

function fromRow(row: unknown): UserRecord | null {
  if (row === undefined) return null;
  const user = row as UserRow;
  return readRecord(UserRecordSchema, 'users', {
    ...user,
    emailNotifications: toBoolean(user.emailNotifications),
    pushNotifications: toBoolean(user.pushNotifications),
    emailVerified: toBoolean(user.emailVerified),
  });
}

const optionalInteger = (value: boolean | undefined): SqlValue =>
  value === undefined ? null : toInteger(value);

export function createUserRepository(db: Database.Database, { write, atomic }: GroupCommit): UserRepository {
  const insert = prepare(
    db,
    `INSERT INTO users (id, name, email, password_hash, bio, language, theme, email_notifications,
       push_notifications, plan, role, avatar, stripe_customer_id, email_verified, created_at)
     VALUES (@id, @name, @email, @passwordHash, @bio, @language, @theme, @emailNotifications,
       @pushNotifications, @plan, @role, @avatar, @stripeCustomerId, @emailVerified, @createdAt)`,
  );
  const byId = prepare(db, `SELECT ${COLUMNS} FROM users WHERE id = @id`);
  const byEmail = prepare(db, `SELECT ${COLUMNS} FROM users WHERE email = @email`);
  // One statement for any patch: an absent field binds NULL and keeps its value (none of these
  // columns may be NULL, so NULL never means "clear"). The email is not among them.
  const update = prepare(
    db,
    `UPDATE users SET
       name = coalesce(@name, name),
       bio = coalesce(@bio, bio),
       language = coalesce(@language, language),
       theme = coalesce(@theme, theme),
       email_notifications = coalesce(@emailNotifications, email_notifications),
       push_notifications = coalesce(@pushNotifications, push_notifications),
       password_hash = coalesce(@passwordHash, password_hash),
       email_verified = coalesce(@emailVerified, email_verified),
       role = coalesce(@role, role),
       plan = coalesce(@plan, plan)
     WHERE id = @id`,
  );
  const preferencesOf = prepare(db, 'SELECT preferences FROM users WHERE id = @id');
  // `avatar` mirrors the chosen avatar of the preferences (User.avatar), written with them.
  const savePreferences = prepare(
    db,
    'UPDATE users SET preferences = @preferences, avatar = @avatar WHERE id = @id',
  );
  const versionOf = prepare(db, 'SELECT token_version AS version FROM users WHERE id = @id');
  const bumpVersion = prepare(
    db,
    'UPDATE users SET token_version = token_version + 1 WHERE id = @id RETURNING token_version AS version',
  );

  const updateAndRead = atomic((id: string, patch: UserPatch) => {
    const fields = definedFields(UserPatchSchema, patch);
    const { changes } = update.run({
      id,
      name: fields.name ?? null,
      bio: fields.bio ?? null,
      language: fields.language ?? null,
      theme: fields.theme ?? null,
      emailNotifications: optionalInteger(fields.emailNotifications),
      pushNotifications: optionalInteger(fields.pushNotifications),
      passwordHash: fields.passwordHash ?? null,
      emailVerified: optionalInteger(fields.emailVerified),
      role: fields.role ?? null,
      plan: fields.plan ?? null,
    });
    return changes === 0 ? null : fromRow(byId.get({ id }));
  });

  /** The saved (sparse) preferences; undefined when there is no such user. */
  const readSaved = (id: string): Partial<Preferences> | undefined => {
    const row = preferencesOf.get({ id }) as { preferences: string | null } | undefined;
    if (row === undefined) return undefined;
    return row.preferences === null ? {} : (JSON.parse(row.preferences) as Partial<Preferences>);
  };
  // Read, merge and write under one transaction, so concurrent patches of different fields all land.
  const mergePreferences = atomic((id: string, patch: Partial<Preferences>) => {
    const saved = readSaved(id);
    if (saved === undefined) return null;
    const merged = { ...preferencesPatch(saved), ...preferencesPatch(patch) };
    const preferences = withDefaultPreferences(merged);
    savePreferences.run({ id, preferences: JSON.stringify(merged), avatar: chosenAvatar(preferences) });
    return preferences;
  });

  return {
    async create(user) {
      const record = newUserRecord(user);
      try {
        await write(() =>
          insert.run({
            ...record,
            emailNotifications: toInteger(record.emailNotifications),
            pushNotifications: toInteger(record.pushNotifications),
            emailVerified: toInteger(record.emailVerified),
          }),
        );
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
    async update(id, patch) {
      return write(() => updateAndRead(id, patch));
    },
    async getPreferences(id) {
      const saved = readSaved(id);
      return saved === undefined ? null : withDefaultPreferences(saved);
    },
    async updatePreferences(id, patch) {
      return write(() => mergePreferences(id, patch));
    },
    async tokenVersion(id) {
      const row = versionOf.get({ id }) as { version: number } | undefined;
      return row?.version ?? null;
    },
    async bumpTokenVersion(id) {
      const row = (await write(() => bumpVersion.get({ id }))) as { version: number } | undefined;
      return row?.version ?? null;
    },
  };
}
