import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../kernel/store/json-store.ts';
import { isInside } from './directories.ts';

/** A directory the owner trusts, with everything below it. */
export interface TrustEntry {
  /** Resolved: no symlink, no `..`. */
  path: string;
  /** Who trusted it (the owner's id as the transport names them). */
  by: string;
  at: number;
}

/**
 * The directories whose own CLI settings, hooks, MCP servers and agent definitions are used
 * (/trust). Everything else is a repository the bridge does not trust: its CLIs are started
 * so that they ignore what it ships (the adapter's `untrusted` flags), and the bridge reads
 * only the operator's agents there. Kept in the data directory, for every chat: trust is a
 * property of a directory, not of a conversation.
 */
export class TrustedDirectories {
  private constructor(private readonly db: Low<{ directories: TrustEntry[] }>) {}

  static async open(dataDir: string): Promise<TrustedDirectories> {
    return new TrustedDirectories(await openJsonStore<{ directories: TrustEntry[] }>(join(dataDir, 'trusted-directories.json'), { directories: [] }));
  }

  get entries(): readonly TrustEntry[] {
    return this.db.data.directories;
  }

  /** The entry trusting `dir` (it, or a directory above it), or undefined. A directory that cannot be resolved is not trusted. */
  async covering(dir: string): Promise<TrustEntry | undefined> {
    const real = await resolved(dir);
    if (!real) return undefined;
    // The nearest one: /trust off in a subdirectory names the entry that actually covers it.
    return this.entries.filter((entry) => isInside(real, entry.path)).sort((a, b) => b.path.length - a.path.length)[0];
  }

  /** Trusts `dir` and everything below it: the entry made (`added`), or the one that covered it already. */
  async trust(dir: string, by: string): Promise<{ entry: TrustEntry; added: boolean }> {
    const real = await resolved(dir);
    if (!real) throw new Error(`${dir} does not exist`);
    const known = await this.covering(real);
    if (known) return { entry: known, added: false };
    const entry: TrustEntry = { path: real, by, at: Date.now() };
    this.db.data.directories = [...this.entries, entry];
    await this.db.write();
    return { entry, added: true };
  }

  /** Withdraws the trust covering `dir` (which may be a directory above it); the entry removed, if any. */
  async withdraw(dir: string): Promise<TrustEntry | undefined> {
    const entry = await this.covering(dir);
    if (!entry) return undefined;
    this.db.data.directories = this.entries.filter((other) => other !== entry);
    await this.db.write();
    return entry;
  }
}

const resolved = (dir: string): Promise<string | undefined> => realpath(resolve(dir)).catch(() => undefined);
