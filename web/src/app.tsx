import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, follow, get, post } from './api.ts';
import { Approvals } from './pages/approvals.tsx';
import { Audit } from './pages/audit.tsx';
import { Chat } from './pages/chat.tsx';
import { Costs } from './pages/costs.tsx';
import { Graphs } from './pages/graphs.tsx';
import { RunPage } from './pages/run.tsx';
import { Runs } from './pages/runs.tsx';
import { SharePage } from './pages/share.tsx';
import { followLive, NOTHING_YET, type Live } from './live.ts';
import { bearer, forget, fromOtherTab, keep } from './session.ts';
import type { Me } from './types.ts';

/** What the page shows that changes while it is open, kept current by the bridge's event stream. */
function useLive(): Live {
  const [live, setLive] = useState<Live>(NOTHING_YET);
  useEffect(() => {
    const stop = new AbortController();
    followLive({ get, follow }, setLive, stop.signal);
    return () => stop.abort();
  }, []);
  return live;
}

type Auth = { state: 'checking' } | { state: 'in'; me: Me } | { state: 'out'; why: string };

/**
 * Logs in from the address it was opened with (a login link, or the Mini App's launch data),
 * or with the session this tab, or else another open tab of the bridge's, has.
 */
async function logIn(): Promise<Me> {
  const { pathname, hash } = location;
  if (pathname === '/login' && hash.length > 1) {
    history.replaceState(null, '', '/');
    keep((await post<{ bearer: string }>('/auth/link', { token: hash.slice(1) })).bearer);
  } else if (pathname === '/app') {
    // Telegram opens a Mini App with its signed launch data in the fragment; no script of telegram.org is needed to read it.
    const launchData = new URLSearchParams(hash.slice(1)).get('tgWebAppData') ?? '';
    history.replaceState(null, '', '/');
    keep((await post<{ bearer: string }>('/auth/in-app', { launchData })).bearer);
  } else if (!bearer()) await fromOtherTab();
  return get<Me>('/me');
}

async function logOut(): Promise<void> {
  await post('/auth/logout', {}).catch(() => {});
  forget();
  location.replace('/');
}

const TABS = [
  ['runs', 'Runs'],
  ['graphs', 'Graphs'],
  ['costs', 'Costs'],
  ['audit', 'Audit'],
  ['approvals', 'Approvals'],
  ['chat', 'Chat'],
] as const;

function useHash(): string {
  const [hash, setHash] = useState(location.hash.slice(1));
  useEffect(() => {
    const changed = () => setHash(location.hash.slice(1));
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

export function App() {
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });
  useEffect(() => {
    const chatPage = location.pathname === '/chat';
    logIn().then(
      (me) => {
        if (chatPage && !location.hash) location.hash = 'chat';
        setAuth({ state: 'in', me });
      },
      (error: Error) =>
        setAuth({ state: 'out', why: error instanceof ApiError && error.status === 401 ? error.message : `The bridge could not be reached: ${error.message}` }),
    );
  }, []);
  if (auth.state === 'checking') return <main class="center">Loading…</main>;
  if (auth.state === 'out')
    return (
      <main class="center">
        <h1>
          <img src="/favicon.svg" alt="" width={28} height={28} /> jsonl-bridge
        </h1>
        <p class="error" data-testid="login-error">
          {auth.why}
        </p>
        <LoginHow why={auth.why} />
      </main>
    );
  // A shared conversation stands alone: none of the dashboard's tabs or actions around it.
  if (location.pathname === '/share') return <SharePage token={location.hash.slice(1)} />;
  return <Dashboard me={auth.me} />;
}

/** What to do to log in, unless the reason shown says it already: said once. */
function LoginHow({ why }: { why: string }) {
  const share = location.pathname === '/share';
  if (why.includes('/dashboard')) return share ? <p data-testid="login-how">Then open this link again.</p> : null;
  const how = 'Send /dashboard to the bot (or in the console) for a login link';
  return <p data-testid="login-how">{share ? `${how}, open it, then open this link again.` : `${how}, and open it.`}</p>;
}

function Dashboard({ me }: { me: Me }) {
  const hash = useHash() || 'runs';
  const live = useLive();
  const [tab, id] = hash.split('/') as [string, string | undefined];
  return (
    <div class="shell">
      <header>
        <strong class="brand">
          <img src="/favicon.svg" alt="" width={20} height={20} /> jsonl-bridge
        </strong>
        <Tabs tab={tab} waiting={live.approvals.length} />
        <span class="who" title={me.identity}>
          {me.name}{' '}
          <button class="link" onClick={() => void logOut()}>
            Log out
          </button>
        </span>
      </header>
      <main>{page(tab, id, live)}</main>
    </div>
  );
}

/** The tabs, in a bar that scrolls sideways on a narrow screen: its edges fade where more tabs are. */
function Tabs({ tab, waiting }: { tab: string; waiting: number }) {
  const bar = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const measure = () => setMore({ before: el.scrollLeft > 2, after: el.scrollLeft + el.clientWidth < el.scrollWidth - 2 });
    el.addEventListener('scroll', measure, { passive: true });
    // Measured again whenever the bar's box or a tab's changes, not only on a window's resize: a bar
    // laid out before the page's styles (or a badge) settled kept a fade where nothing was past its edge.
    const resized = new ResizeObserver(measure);
    for (const box of [el, ...el.children]) resized.observe(box);
    // The chosen tab is always in view.
    el.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    measure();
    return () => {
      el.removeEventListener('scroll', measure);
      resized.disconnect();
    };
  }, [tab]);
  const current = tab === 'run' ? 'runs' : tab;
  return (
    <nav ref={bar} aria-label="Dashboard" class={`tabs${more.before ? ' more-before' : ''}${more.after ? ' more-after' : ''}`}>
      {TABS.map(([key, label]) => (
        <a key={key} href={`#${key}`} class={current === key ? 'active' : ''} aria-current={current === key ? 'page' : undefined}>
          {label}
          {key === 'approvals' && waiting ? (
            <span class="badge">
              {waiting}
              <span class="visually-hidden"> waiting</span>
            </span>
          ) : null}
        </a>
      ))}
    </nav>
  );
}

function page(tab: string, id: string | undefined, live: Live) {
  switch (tab) {
    case 'run':
      return <RunPage id={id ?? ''} live={live} />;
    case 'graphs':
      return <Graphs live={live} selected={id} />;
    case 'costs':
      return <Costs />;
    case 'audit':
      return <Audit />;
    case 'approvals':
      return <Approvals live={live} selected={id} />;
    case 'chat':
      return <Chat live={live} />;
    default:
      return <Runs live={live} />;
  }
}
