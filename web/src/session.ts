/**
 * The tab's session secret: in its session storage, which belongs to this page's origin alone
 * (scheme, host and port; a cookie would go to every port of the host), and sent as a bearer
 * header. A tab opened from another (a link in a new tab) starts with an empty storage: it asks
 * the origin's open tabs over a BroadcastChannel (same origin only too) and takes the secret
 * from one of them; with none open, the person logs in again with /dashboard.
 */
const KEY = 'jb-bearer';
const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel('jb-session');

type Message = { ask: true } | { bearer: string } | { loggedOut: string };

export function bearer(): string {
  return sessionStorage.getItem(KEY) ?? '';
}

export function keep(secret: string): void {
  sessionStorage.setItem(KEY, secret);
}

/** Forgets the secret here, and in every tab that shares it (their session has ended too). */
export function forget(): void {
  const secret = bearer();
  sessionStorage.removeItem(KEY);
  if (secret) channel?.postMessage({ loggedOut: secret } satisfies Message);
}

channel?.addEventListener('message', (event: MessageEvent<Message>) => {
  const secret = bearer();
  if (!secret) return;
  if ('ask' in event.data) channel.postMessage({ bearer: secret } satisfies Message);
  else if ('loggedOut' in event.data && event.data.loggedOut === secret) {
    sessionStorage.removeItem(KEY);
    location.replace('/');
  }
});

/** The session of another open tab of this origin, if one answers within `waitMs`; kept here. */
export async function fromOtherTab(waitMs = 1000): Promise<string | undefined> {
  if (!channel) return undefined;
  const answer = new Promise<string | undefined>((resolve) => {
    const heard = (event: MessageEvent<Message>) => {
      if (!('bearer' in event.data)) return;
      channel.removeEventListener('message', heard);
      resolve(event.data.bearer);
    };
    channel.addEventListener('message', heard);
    setTimeout(() => {
      channel.removeEventListener('message', heard);
      resolve(undefined);
    }, waitMs);
  });
  channel.postMessage({ ask: true } satisfies Message);
  const secret = await answer;
  if (secret) keep(secret);
  return secret;
}
