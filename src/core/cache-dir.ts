import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A cache directory of this user's own (a shared temporary directory may hold another user's, not writable). */
export const userCacheDir = (name: string): string => join(tmpdir(), `${name}-${process.getuid?.() ?? 'user'}`);
