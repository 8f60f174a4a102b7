import type { WebIdentity, WebSessions } from './auth/web-sessions.ts';

/** What /dashboard hands out: a one-time login link for a browser, and the in-app page's address where the chat app can open it. */
export interface WebLinks {
  /** A link that logs this person in once, within ten minutes. The secret is in the fragment: no server, proxy or preview sees it. */
  loginLink(who: WebIdentity): string;
  /** The in-app page's address, when there is one: a Mini App opens only over HTTPS, from a private chat. */
  miniAppUrl?: string;
}

export function webLinks(url: string, sessions: WebSessions, miniApp: boolean): WebLinks {
  return {
    loginLink: (who) => `${url}/login#${sessions.loginLink(who)}`,
    ...(miniApp ? { miniAppUrl: `${url}/app` } : {}),
  };
}
