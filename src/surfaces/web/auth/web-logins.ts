import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Low } from 'lowdb';
import { openJsonStore } from '../../../kernel/store/json-store.ts';

/** A login link works this long, once. */
export const LOGIN_LINK_MS = 10 * 60_000;
/** A login lasts this long: a deploy twice a day logs nobody out. */
export const LOGIN_MS = 14 * 24 * 3_600_000;

/** Who is logged in: as allowlists hold them (`<transport>:42`), and how to call them. */
export interface WebIdentity {
  identity: string;
  name?: string;
}

export interface WebLogin extends WebIdentity {
  expiresAt: number;
}

interface Data {
  /** sha256 of the session's secret → session: the file holds nothing that logs anyone in. */
  sessions: Record<string, WebLogin & { csrf?: string }>;
}

/**
 * One-time login links and the logins they start: a person's web pages, by a cookie (not a
 * chat's session; the file keeps its first name). Links live in memory (ten minutes; a restart
 * asks for a new one); logins are kept in `BRIDGE_DATA_DIR/web-sessions.json`, by the hash of
 * their secret.
 */
export class WebLogins {
  private readonly links = new Map<string, WebIdentity & { expiresAt: number }>();

  private constructor(private readonly db: Low<Data>) {}

  static async open(dataDir: string): Promise<WebLogins> {
    const logins = new WebLogins(await openJsonStore<Data>(join(dataDir, 'web-sessions.json'), { sessions: {} }));
    await logins.sweep();
    return logins;
  }

  /** A new link's secret for this person: it logs in once, within ten minutes. */
  loginLink(who: WebIdentity, now = Date.now()): string {
    for (const [token, link] of this.links) if (link.expiresAt <= now) this.links.delete(token);
    const token = secret();
    this.links.set(hash(token), { ...who, expiresAt: now + LOGIN_LINK_MS });
    return token;
  }

  /** Uses a link up: the person it was made for, or undefined when it is unknown, used or expired. */
  useLink(token: string, now = Date.now()): WebIdentity | undefined {
    const key = hash(token);
    const link = this.links.get(key);
    this.links.delete(key);
    if (!link || link.expiresAt <= now) return undefined;
    return { identity: link.identity, ...(link.name ? { name: link.name } : {}) };
  }

  /** Starts a session; returns its secret (the page's bearer) and the session. */
  async start(who: WebIdentity, now = Date.now()): Promise<{ secret: string; session: WebLogin }> {
    const value = secret();
    const session: WebLogin = { ...who, expiresAt: now + LOGIN_MS };
    this.db.data.sessions[hash(value)] = session;
    await this.db.write();
    return { secret: value, session };
  }

  /** The session a secret belongs to, while it lasts. */
  get(value: string | undefined, now = Date.now()): WebLogin | undefined {
    if (!value) return undefined;
    const session = this.db.data.sessions[hash(value)];
    return session && session.expiresAt > now ? session : undefined;
  }

  async end(value: string): Promise<void> {
    delete this.db.data.sessions[hash(value)];
    await this.db.write();
  }

  /**
   * Drops expired sessions, and those a cookie carried (they have a CSRF token): a browser sent
   * that cookie to every server on its host, so any of them may hold the secret.
   */
  private async sweep(now = Date.now()): Promise<void> {
    const { sessions } = this.db.data;
    const expired = Object.keys(sessions).filter((key) => sessions[key]!.expiresAt <= now || sessions[key]!.csrf !== undefined);
    for (const key of expired) delete sessions[key];
    if (expired.length) await this.db.write();
  }
}

const secret = () => randomBytes(24).toString('base64url');
const hash = (value: string) => createHash('sha256').update(value).digest('hex');
