import { MongoClient, type Db } from 'mongodb';
import type { Storage } from '../types.ts';
import { createGridFsBlobStore } from './blobs.ts';
import { createCustomAvatarRepository, type CustomAvatarDocument } from './custom-avatars.ts';
import { createCustomVoiceRepository, type CustomVoiceDocument } from './custom-voices.ts';
import { createIdentityRepository, type IdentityDocument } from './identities.ts';
import { createKnownDeviceRepository, type KnownDeviceDocument } from './known-devices.ts';
import { createMessageRepository, type MessageDocument } from './messages.ts';
import { createOneTimeTokenRepository, type OneTimeTokenDocument } from './one-time-tokens.ts';
import { createRefreshTokenRepository, type RefreshTokenDocument } from './refresh-tokens.ts';
import { createSendRepository } from './sends.ts';
import { createSessionRepository, type SessionDocument } from './sessions.ts';
import { createUsageRepository, type UsageDocument } from './usage.ts';
import { createUserRepository, type UserDocument } from './users.ts';

/**
 * Indexes mirror the embedded schema's constraints; creating them is idempotent, so every instance
 * does it on start. Ids are the caller's strings, stored as `_id`.
 */
async function createIndexes(db: Db): Promise<void> {
  await Promise.all([
    db.collection<UserDocument>('users').createIndex({ email: 1 }, { unique: true }),
    db.collection<RefreshTokenDocument>('refreshTokens').createIndexes([
      { key: { familyId: 1 } },
      { key: { userId: 1 } },
      // MongoDB removes a token once it has expired (TTL index; expiresAt is an ISO string).
      { key: { purgeAt: 1 }, expireAfterSeconds: 0 },
    ]),
    db.collection<SessionDocument>('sessions').createIndex({ userId: 1, updatedAt: -1, _id: -1 }),
    db.collection<MessageDocument>('messages').createIndexes([
      // A retried send is stored once (SPEC.md C-2); replies carry no client id and are not limited.
      {
        key: { userId: 1, clientMessageId: 1 },
        unique: true,
        partialFilterExpression: { clientMessageId: { $type: 'string' } },
      },
      // Message order everywhere is (createdAt, _id): ids are time-ordered and break ties.
      { key: { sessionId: 1, createdAt: 1, _id: 1 } },
      { key: { userId: 1, sessionId: 1 } },
      { key: { replyTo: 1 } },
    ]),
    // Serves revoking a user's unused links of one kind.
    db.collection<OneTimeTokenDocument>('oneTimeTokens').createIndexes([
      { key: { userId: 1, kind: 1 } },
      // Expired reset and verification links are removed by MongoDB itself (TTL index).
      { key: { purgeAt: 1 }, expireAfterSeconds: 0 },
    ]),
    db
      .collection<IdentityDocument>('identities')
      .createIndexes([
        { key: { provider: 1, subject: 1 }, unique: true },
        { key: { userId: 1, createdAt: 1 } },
      ]),
    db.collection<UsageDocument>('usage').createIndex({ userId: 1, period: 1 }, { unique: true }),
    db.collection<CustomVoiceDocument>('customVoices').createIndex({ userId: 1, createdAt: 1, _id: 1 }),
    db.collection<CustomAvatarDocument>('customAvatars').createIndex({ userId: 1, createdAt: 1, _id: 1 }),
    db.collection<CustomAvatarDocument>('customAvatars').createIndex({ status: 1 }),
    // A device not signed in from for 30 days is forgotten by MongoDB itself (TTL index).
    db.collection<KnownDeviceDocument>('knownDevices').createIndex({ purgeAt: 1 }, { expireAfterSeconds: 0 }),
  ]);
}

/**
 * The store for deployments with MongoDB (`MONGODB_URI`); several server instances can share it.
 * Without `dbName`, the database is the one the URI names, else the driver's default (`test`).
 */
export async function openMongoStorage({ uri, dbName }: { uri: string; dbName?: string }): Promise<Storage> {
  const client = new MongoClient(uri);
  const db = client.db(dbName);
  try {
    await client.connect();
    await createIndexes(db);
  } catch (error) {
    await client.close();
    throw error;
  }
  return mongoStorageOf(client, db);
}

/**
 * The repositories and blob buckets over `db`, without connecting (the driver connects on the
 * first operation): `openMongoStorage` connects and indexes first.
 */
export function mongoStorageOf(client: MongoClient, db: Db): Storage {
  const messages = db.collection<MessageDocument>('messages');
  const chat = {
    sessions: createSessionRepository(db.collection<SessionDocument>('sessions'), messages),
    messages: createMessageRepository(messages),
    usage: createUsageRepository(db.collection<UsageDocument>('usage')),
  };
  let closed = false;
  return {
    kind: 'mongodb',
    users: createUserRepository(db.collection<UserDocument>('users')),
    refreshTokens: createRefreshTokenRepository(db.collection<RefreshTokenDocument>('refreshTokens')),
    ...chat,
    sends: createSendRepository(chat),
    oneTimeTokens: createOneTimeTokenRepository(db.collection<OneTimeTokenDocument>('oneTimeTokens')),
    identities: createIdentityRepository(db.collection<IdentityDocument>('identities')),
    customVoices: createCustomVoiceRepository(db.collection<CustomVoiceDocument>('customVoices')),
    customAvatars: createCustomAvatarRepository(db.collection<CustomAvatarDocument>('customAvatars')),
    knownDevices: createKnownDeviceRepository(db.collection<KnownDeviceDocument>('knownDevices')),
    blobBucket: (name) => createGridFsBlobStore(db, name),
    // A write is durable (its write concern) when it resolves: nothing is left to wait for.
    synced: async () => undefined,
    readTogether: (reads) => reads(),
    async ping() {
      // The driver reconnects on demand, so a closed client would otherwise answer again.
      if (closed) return false;
      try {
        await db.command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      closed = true;
      await client.close();
    },
  };
}
