import { createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../../../kernel/http/same-secret.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../../kernel/store/json-store.ts';
import { own } from '../../../kernel/store/own.ts';
import { writePrivateFile } from '../../../kernel/store/private-files.ts';
import type { ShareTarget } from '../../../chat/session/web-links.ts';

/** A share link works this long from when it was made. */
export const SHARE_LINK_MS = 7 * 24 * 3_600_000;

export interface Share {
  id: string;
  target: ShareTarget;
  /** Who made it (`<transport>:<id>`). */
  by: string;
  createdAt: number;
  expiresAt: number;
}

interface Data {
  shares: Record<string, Share>;
}

/**
 * Read-only links to a chat's session or run, for the chat's own people: a link is signed with
 * the bridge's key (kept owner-only in the data directory) and names its end, so it cannot be
 * made up or stretched; it works while its record is kept, so deleting the record (`/export
 * unshare`, or the record from `shares.json`) revokes it. Opening one still takes a logged-in
 * person who belongs to its chat: a link alone shows nothing.
 */
export class ShareLinks {
  private constructor(
    private readonly db: Low<Data>,
    private readonly key: Buffer,
  ) {}

  static async open(dataDir: string, now = Date.now()): Promise<ShareLinks> {
    const links = new ShareLinks(await openJsonStore<Data>(join(dataDir, 'shares.json'), { shares: {} }), await signingKey(join(dataDir, 'share-key')));
    const { shares } = links.db.data;
    const ended = Object.keys(shares).filter((id) => shares[id]!.expiresAt <= now);
    for (const id of ended) delete shares[id];
    if (ended.length) await links.db.write();
    return links;
  }

  /** A new link's token for `target`, made by `by`. */
  async create(target: ShareTarget, by: string, now = Date.now()): Promise<{ token: string; share: Share }> {
    const share: Share = { id: randomBytes(9).toString('base64url'), target, by, createdAt: now, expiresAt: now + SHARE_LINK_MS };
    this.db.data.shares[share.id] = share;
    await this.db.write();
    return { token: this.sign(share), share };
  }

  /** The share a token names, while it is signed by this bridge, unexpired and kept; else undefined. */
  find(token: string, now = Date.now()): Share | undefined {
    const [id = '', expires = '', signature = ''] = token.split('.');
    const share = own(this.db.data.shares, id);
    if (!share || share.expiresAt <= now || share.expiresAt.toString(36) !== expires) return undefined;
    return sameSecret(signature, this.sign(share).split('.')[2]!) ? share : undefined;
  }

  /** Revokes every link to the chat's (`chatKey`) sessions and runs; returns how many. */
  async revokeChat(chat: string): Promise<number> {
    const { shares } = this.db.data;
    const ids = Object.keys(shares).filter((id) => shares[id]!.target.chat === chat);
    for (const id of ids) delete shares[id];
    if (ids.length) await this.db.write();
    return ids.length;
  }

  private sign(share: Share): string {
    const expires = share.expiresAt.toString(36);
    const signature = createHmac('sha256', this.key)
      .update(`${share.id}.${expires}.${JSON.stringify(share.target)}`)
      .digest('base64url')
      .slice(0, 32);
    return `${share.id}.${expires}.${signature}`;
  }
}

/** The bridge's key for share links: made once, owner-only. */
async function signingKey(file: string): Promise<Buffer> {
  const kept = await readFile(file).catch(() => undefined);
  if (kept && kept.length >= 32) return kept;
  const key = randomBytes(32);
  await writePrivateFile(file, key);
  return key;
}
