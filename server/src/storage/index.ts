import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openEmbeddedStorage, type ThreadStopped } from './embedded/index.ts';
import { openMongoStorage } from './mongodb/index.ts';
import type { Storage } from './types.ts';

export * from './types.ts';
export { openEmbeddedStorage, openMongoStorage, type ThreadStopped };

export interface StorageConfig {
  /** Set: MongoDB. Unset: the embedded database under `dataDir`. */
  mongodbUri?: string;
  mongodbDbName?: string;
  dataDir: string;
  /** The embedded store's reader or checkpoint thread stopped before it closed (logged). */
  onThreadStopped?: ThreadStopped;
}

/** The embedded database's file inside DATA_DIR. */
export const EMBEDDED_FILE_NAME = 'alma.db';

export async function openStorage(config: StorageConfig): Promise<Storage> {
  if (config.mongodbUri) {
    return openMongoStorage({ uri: config.mongodbUri, dbName: config.mongodbDbName });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return openEmbeddedStorage({
    file: join(config.dataDir, EMBEDDED_FILE_NAME),
    ...(config.onThreadStopped ? { onThreadStopped: config.onThreadStopped } : {}),
  });
}
