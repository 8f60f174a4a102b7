/** What a share link shows: one CLI session of a chat, or one run. */
export type ShareTarget = { kind: 'session'; chat: string; session: string } | { kind: 'run'; chat: string; runId: string };

/**
 * What /dashboard and /export hand out, from the web server when it runs: a one-time login
 * link for a browser, the in-app page's address, and read-only share links.
 */
export interface WebLinks {
  /** A link that logs this person in once, within ten minutes. The secret is in the fragment: no server, proxy or preview sees it. */
  loginLink(who: { identity: string; name?: string }): string;
  /** The in-app page's address, when there is one: a Mini App opens only over HTTPS, from a private chat. */
  miniAppUrl?: string;
  /** A read-only page of a chat's session or run for the chat's people, and when it stops working. */
  shareLink(target: ShareTarget, by: string): Promise<{ url: string; expiresAt: number }>;
  /** Revokes every share link of a chat (`chatKey`); how many there were. */
  revokeShares(chat: string): Promise<number>;
}
