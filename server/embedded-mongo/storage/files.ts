/**
 * The file system the journal writes through: node's own, or in tests a wrapper that fails the way a full or
 * failing disk does (ENOSPC, EIO), since a real full disk cannot be made on every machine.
 */
import type fs from 'node:fs';

export type FileSystem = typeof fs;
