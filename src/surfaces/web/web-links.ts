import type { WebLinks } from '../../chat/session/web-links.ts';
import type { WebLogins } from './auth/web-logins.ts';
import type { ShareLinks } from './shares/share-links.ts';

/** The web server's links, at its address `url`. */
export function webLinks(url: string, sessions: WebLogins, shares: ShareLinks, miniApp: boolean): WebLinks {
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
