import type { Collection } from 'mongodb';
import type { KnownDeviceRepository } from '../types.ts';

/** `purgeAt`: the expiry as a BSON date, for the TTL index that removes forgotten devices. */
export interface KnownDeviceDocument {
  _id: string;
  signedInAt: number;
  expiresAt: number;
  purgeAt: Date;
}

export function createKnownDeviceRepository(devices: Collection<KnownDeviceDocument>): KnownDeviceRepository {
  return {
    async lastSignIn(key, now) {
      // The TTL index runs once a minute: an expired document may still be there.
      const document = await devices.findOne({ _id: key, expiresAt: { $gt: now } });
      return document === null ? null : document.signedInAt;
    },
    async recordSignIn(key, at, expiresAt) {
      await devices.updateOne(
        { _id: key },
        { $set: { signedInAt: at, expiresAt, purgeAt: new Date(expiresAt) } },
        { upsert: true },
      );
    },
  };
}
