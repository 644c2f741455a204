import type Database from 'libsql';
import { prepare } from './sql.ts';

/**
 * The embedded schema, as an append-only list: a migration once shipped is never edited, a change
 * is a new entry. Each runs in its own transaction together with its row in `schema_migrations`,
 * so a crash leaves the database either before or after it, never halfway.
 *
 * Conventions: times are ISO-8601 UTC strings as the caller produces them, so text order is time
 * order; booleans are 0/1; JSON is text checked with json_valid. STRICT tables refuse a value of
 * the wrong type instead of silently storing it.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        -- Lower-cased by the repository; the check keeps a direct write from breaking uniqueness.
        email TEXT NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash TEXT NOT NULL,
        bio TEXT NOT NULL,
        language TEXT NOT NULL,
        theme TEXT NOT NULL,
        email_notifications INTEGER NOT NULL CHECK (email_notifications IN (0, 1)),
        push_notifications INTEGER NOT NULL CHECK (push_notifications IN (0, 1)),
        plan TEXT NOT NULL,
        role TEXT NOT NULL,
        avatar TEXT,
        stripe_customer_id TEXT,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        family_id TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        replaced_by TEXT
      ) STRICT;
      CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
      CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

      CREATE TABLE sessions (
        session_id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title TEXT,
        personality TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      -- Serves the owner's list in its order.
      CREATE INDEX sessions_owner ON sessions (user_id, updated_at DESC, session_id DESC);

      CREATE TABLE messages (
        _id TEXT PRIMARY KEY,
        -- Deleting a session deletes its messages.
        session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        created_at TEXT NOT NULL,
        client_message_id TEXT,
        reply_to TEXT,
        emotion TEXT,
        emotion_analysis TEXT CHECK (emotion_analysis IS NULL OR json_valid(emotion_analysis)),
        language TEXT,
        user_language TEXT,
        personality TEXT,
        audio_url TEXT,
        is_complete INTEGER NOT NULL CHECK (is_complete IN (0, 1))
      ) STRICT;
      -- A retried send is stored once (SPEC.md C-2); replies carry no client id and are not limited.
      CREATE UNIQUE INDEX messages_client_id ON messages (user_id, client_message_id)
        WHERE client_message_id IS NOT NULL;
      -- Message order everywhere is (created_at, _id): ids are time-ordered and break ties.
      CREATE INDEX messages_order ON messages (session_id, created_at, _id);
      -- Serves per-user counts, and per-session counts without visiting rows.
      CREATE INDEX messages_user ON messages (user_id, session_id);
      CREATE INDEX messages_reply_to ON messages (reply_to) WHERE reply_to IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'accounts: verification, preferences, one-time links, identities, usage',
    sql: `
      ALTER TABLE users ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0
        CHECK (email_verified IN (0, 1));
      -- Only the preferences the user saved, as a JSON object; NULL (nothing saved) reads as the defaults.
      ALTER TABLE users ADD COLUMN preferences TEXT
        CHECK (preferences IS NULL OR json_valid(preferences));

      CREATE TABLE one_time_tokens (
        -- sha256 of the emailed token; the token itself is never stored.
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('reset', 'verify')),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      ) STRICT;
      -- Serves revoking a user's unused links of one kind.
      CREATE INDEX one_time_tokens_user ON one_time_tokens (user_id, kind) WHERE used_at IS NULL;

      CREATE TABLE identities (
        provider TEXT NOT NULL,
        subject TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email TEXT,
        created_at TEXT NOT NULL,
        -- One provider account links to one user.
        PRIMARY KEY (provider, subject)
      ) STRICT;
      CREATE INDEX identities_user ON identities (user_id, created_at);

      -- One row per user and month (YYYY-MM, UTC); a missing row means nothing was counted.
      CREATE TABLE usage (
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        period TEXT NOT NULL,
        messages INTEGER NOT NULL DEFAULT 0 CHECK (messages >= 0),
        voice_seconds REAL NOT NULL DEFAULT 0 CHECK (voice_seconds >= 0),
        PRIMARY KEY (user_id, period)
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'chat: stored conversation context, title source, reply signals, voice and avatar',
    sql: `
      -- 'user' titles are never replaced by the automatic one (SPEC.md C-12). Titles stored before
      -- this migration could only have been set by their user.
      ALTER TABLE sessions ADD COLUMN title_source TEXT
        CHECK (title_source IS NULL OR title_source IN ('user', 'auto'));
      UPDATE sessions SET title_source = 'user' WHERE title IS NOT NULL;
      -- The conversation context (SPEC.md C-11) as JSON, and the decayed emotion scores it keeps.
      ALTER TABLE sessions ADD COLUMN context TEXT CHECK (context IS NULL OR json_valid(context));
      ALTER TABLE sessions ADD COLUMN emotion_scores TEXT
        CHECK (emotion_scores IS NULL OR json_valid(emotion_scores));
      -- Derived from emotion_scores, kept beside it so the session list reads it without JSON.
      ALTER TABLE sessions ADD COLUMN dominant_emotion TEXT;

      -- What the export needs to replay a conversation (SPEC.md C-13).
      ALTER TABLE messages ADD COLUMN gesture TEXT;
      ALTER TABLE messages ADD COLUMN voice_id TEXT;
      ALTER TABLE messages ADD COLUMN avatar_id TEXT;
    `,
  },
  {
    version: 4,
    name: 'custom voices',
    sql: `
      -- Uploaded voices (SPEC.md VU-5); the sample itself is a blob named by 'file'.
      CREATE TABLE custom_voices (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        category TEXT NOT NULL,
        language TEXT NOT NULL,
        gender TEXT NOT NULL,
        format TEXT NOT NULL,
        original_name TEXT NOT NULL,
        file TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL CHECK (size >= 0),
        created_at TEXT NOT NULL,
        analysis TEXT NOT NULL CHECK (json_valid(analysis)),
        speech TEXT NOT NULL CHECK (json_valid(speech))
      ) STRICT;
      CREATE INDEX custom_voices_by_user ON custom_voices (user_id, created_at, id);
    `,
  },
  {
    version: 5,
    name: 'custom avatars',
    sql: `
      -- Uploaded avatars and their processing (SPEC.md AU-4); files are blobs named in the row.
      CREATE TABLE custom_avatars (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        tags TEXT NOT NULL CHECK (json_valid(tags)),
        original_name TEXT NOT NULL,
        original_size INTEGER NOT NULL CHECK (original_size >= 0),
        created_at TEXT NOT NULL,
        started_at TEXT NOT NULL,
        estimated_ms INTEGER NOT NULL,
        status TEXT NOT NULL,
        step TEXT NOT NULL,
        progress INTEGER NOT NULL CHECK (progress BETWEEN 0 AND 100),
        upload_file TEXT,
        model_file TEXT,
        processed_size INTEGER,
        compression_ratio REAL,
        rig_metadata TEXT CHECK (rig_metadata IS NULL OR json_valid(rig_metadata)),
        animation_config TEXT CHECK (animation_config IS NULL OR json_valid(animation_config)),
        compatibility TEXT CHECK (compatibility IS NULL OR json_valid(compatibility)),
        error TEXT CHECK (error IS NULL OR json_valid(error)),
        completed_at TEXT
      ) STRICT;
      CREATE INDEX custom_avatars_by_user ON custom_avatars (user_id, created_at, id);
      CREATE INDEX custom_avatars_unfinished ON custom_avatars (status) WHERE status IN ('pending', 'processing');
    `,
  },
  {
    version: 6,
    name: 'access token versions',
    sql: `
      -- Bumped when every access token of the user is revoked (SPEC.md A-12).
      ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0 CHECK (token_version >= 0);
    `,
  },
  {
    version: 7,
    name: 'message counts kept on sessions',
    sql: `
      -- The session list reads each session's count from its row instead of counting its messages
      -- per row (issue 14). Triggers keep it exact whatever writes or deletes a message; a
      -- session's deletion takes its messages with it (ON DELETE CASCADE), and its row with them.
      ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0);
      UPDATE sessions SET message_count = (
        SELECT count(*) FROM messages m WHERE m.session_id = sessions.session_id AND m.user_id = sessions.user_id
      );
      CREATE TRIGGER messages_counted AFTER INSERT ON messages BEGIN
        UPDATE sessions SET message_count = message_count + 1
          WHERE session_id = NEW.session_id AND user_id = NEW.user_id;
      END;
      CREATE TRIGGER messages_uncounted AFTER DELETE ON messages BEGIN
        UPDATE sessions SET message_count = message_count - 1
          WHERE session_id = OLD.session_id AND user_id = OLD.user_id;
      END;
      CREATE TRIGGER messages_moved AFTER UPDATE OF session_id, user_id ON messages BEGIN
        UPDATE sessions SET message_count = message_count - 1
          WHERE session_id = OLD.session_id AND user_id = OLD.user_id;
        UPDATE sessions SET message_count = message_count + 1
          WHERE session_id = NEW.session_id AND user_id = NEW.user_id;
      END;
    `,
  },
  {
    version: 8,
    name: 'known devices of the login guard',
    sql: `
      -- An account's last sign-in per address (SPEC.md A-8), under the guard's opaque key: a
      -- known device is never slowed by strangers' failures, restart or not. Times in ms.
      CREATE TABLE known_devices (
        key TEXT PRIMARY KEY,
        signed_in_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX known_devices_expiry ON known_devices (expires_at);
    `,
  },
  {
    version: 9,
    name: 'reply leases',
    sql: `
      -- A reply in flight on one of several instances: its owner renews the lease (epoch ms)
      -- while it is alive, so the row, not Redis alone, says whether it still runs (SPEC.md M-5).
      ALTER TABLE messages ADD COLUMN lease_until INTEGER;
    `,
  },
  {
    version: 10,
    name: 'session list versions',
    sql: `
      -- Bumped whenever anything the user's session list shows changes, whoever writes it (this
      -- process, another instance on the same file, a message's count trigger): a list read
      -- earlier is still exact while the number stands (sessions.ts caches on it; issue 14).
      ALTER TABLE users ADD COLUMN sessions_version INTEGER NOT NULL DEFAULT 0;
      CREATE TRIGGER session_listed AFTER INSERT ON sessions BEGIN
        UPDATE users SET sessions_version = sessions_version + 1 WHERE id = NEW.user_id;
      END;
      CREATE TRIGGER session_unlisted AFTER DELETE ON sessions BEGIN
        UPDATE users SET sessions_version = sessions_version + 1 WHERE id = OLD.user_id;
      END;
      -- Only a change of what the list shows (the repository's UPDATE names every column).
      CREATE TRIGGER session_relisted AFTER UPDATE ON sessions
        WHEN OLD.session_id IS NOT NEW.session_id OR OLD.user_id IS NOT NEW.user_id
          OR OLD.title IS NOT NEW.title OR OLD.personality IS NOT NEW.personality
          OR OLD.created_at IS NOT NEW.created_at OR OLD.updated_at IS NOT NEW.updated_at
          OR OLD.message_count IS NOT NEW.message_count OR OLD.dominant_emotion IS NOT NEW.dominant_emotion
      BEGIN
        UPDATE users SET sessions_version = sessions_version + 1 WHERE id IN (OLD.user_id, NEW.user_id);
      END;
    `,
  },
];

/**
 * Applies the migrations this database has not seen. Safe to run on every open, and from several
 * processes at once: each migration takes the write lock (BEGIN IMMEDIATE) and re-reads the
 * applied versions under it, so a migration another process has just applied is skipped.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT
  `);
  const applied = prepare(db, 'SELECT version FROM schema_migrations WHERE version = @version');
  const record = prepare(
    db,
    `INSERT INTO schema_migrations (version, name, applied_at)
     VALUES (@version, @name, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
  );
  for (const migration of migrations) {
    db.transaction(() => {
      if (applied.get({ version: migration.version }) !== undefined) return;
      db.exec(migration.sql);
      record.run({ version: migration.version, name: migration.name });
    }).immediate();
  }
  // A database migrated by a newer release may hold data this code would misread: refuse it.
  const known = migrations.at(-1)?.version ?? 0;
  const newest = prepare(db, 'SELECT max(version) AS version FROM schema_migrations').get({}) as
    { version: number | null } | undefined;
  if ((newest?.version ?? 0) > known) {
    throw new Error(
      `database schema version ${newest?.version} is newer than this server knows (${known}); upgrade the server`,
    );
  }
}
