import type { WebIdentity, WebSessions } from './auth/web-sessions.ts';
import type { ShareLinks, ShareTarget } from './shares/share-links.ts';

/** What /dashboard and /export hand out: a one-time login link for a browser, the in-app page's address, and read-only share links. */
export interface WebLinks {
  /** A link that logs this person in once, within ten minutes. The secret is in the fragment: no server, proxy or preview sees it. */
  loginLink(who: WebIdentity): string;
  /** The in-app page's address, when there is one: a Mini App opens only over HTTPS, from a private chat. */
  miniAppUrl?: string;
  /** A read-only page of a chat's session or run for the chat's people, and when it stops working. */
  shareLink(target: ShareTarget, by: string): Promise<{ url: string; expiresAt: number }>;
  /** Revokes every share link of a chat (`chatKey`); how many there were. */
  revokeShares(chat: string): Promise<number>;
}

export function webLinks(url: string, sessions: WebSessions, shares: ShareLinks, miniApp: boolean): WebLinks {
  return {
    loginLink: (who) => `${url}/login#${sessions.loginLink(who)}`,
    ...(miniApp ? { miniAppUrl: `${url}/app` } : {}),
    // The token rides in the fragment, like a login link's: it stays out of servers' and proxies' logs.
    shareLink: async (target, by) => {
      const { token, share } = await shares.create(target, by);
      return { url: `${url}/share#${token}`, expiresAt: share.expiresAt };
    },
    revokeShares: (chat) => shares.revokeChat(chat),
  };
}
