import type { OrchestrationView, Question, RunView, WebMessage } from './types.ts';

/** The empty state, before the stream first opens. */
export const NOTHING_YET: Live = { runs: [], orchestrations: [], approvals: [], chat: [], connected: false };

/** What changes while the page is open: kept current by the bridge's event stream. */
export interface Live {
  runs: RunView[];
  orchestrations: OrchestrationView[];
  approvals: Question[];
  chat: WebMessage[];
  /** The stream is open: what is shown is current. */
  connected: boolean;
}

const upsert = <T extends Record<K, string>, K extends keyof T>(list: T[], item: T, key: K, newestFirst = true): T[] => {
  const at = list.findIndex((x) => x[key] === item[key]);
  if (at >= 0) return list.map((x, i) => (i === at ? item : x));
  return newestFirst ? [item, ...list] : [...list, item];
};

type Change = (live: Live) => Live;

/** The bridge's API as the live state reads it (api.ts's `get` and `follow`). */
export interface LiveApi {
  get<T>(path: string): Promise<T>;
  follow(path: string, on: (event: string, data: unknown) => void, signal: AbortSignal, onOpen?: () => void): Promise<void>;
}

/**
 * Keeps what is shown current from the bridge's event stream: each (re)opening of the stream
 * fetches everything once, so nothing changed while it was closed is missed, and each event
 * then changes what it names.
 */
export function followLive(api: LiveApi, setLive: (change: Change) => void, signal: AbortSignal): void {
  // Changes that came while a refresh's fetches were on their way: its answers may be older
  // than they are, so they are applied again on top of what it fetched.
  let cameDuring: Change[] | undefined;
  const change = (next: Change) => {
    cameDuring?.push(next);
    setLive(next);
  };
  const refresh = async () => {
    const changes: Change[] = (cameDuring = []);
    const [runs, orchestrations, approvals, chat] = await Promise.all([
      api.get<RunView[]>('/runs'),
      api.get<OrchestrationView[]>('/orchestrations'),
      api.get<Question[]>('/approvals'),
      api.get<WebMessage[]>('/chat'),
    ]).finally(() => {
      if (cameDuring === changes) cameDuring = undefined;
    });
    const fetched: Live = { runs, orchestrations, approvals, chat, connected: true };
    setLive(() => changes.reduce((live, next) => next(live), fetched));
  };
  void api
    .follow(
      '/events',
      (event, data) => {
        if (event === 'hello') void refresh();
        else if (event === 'run') change((l) => ({ ...l, runs: upsert(l.runs, data as RunView, 'runId') }));
        else if (event === 'orchestration') change((l) => ({ ...l, orchestrations: upsert(l.orchestrations, data as OrchestrationView, 'id') }));
        else if (event === 'approvals') change((l) => ({ ...l, approvals: data as Question[] }));
        else if (event === 'chat') change((l) => ({ ...l, chat: upsert(l.chat, data as WebMessage, 'id', false) }));
      },
      signal,
      () => setLive((l) => ({ ...l, connected: true })),
    )
    .catch(() => setLive((l) => ({ ...l, connected: false })));
}

/** The question a run waits on, if it waits for someone's answer. */
export function questionOf(live: Pick<Live, 'approvals'>, runId: string): Question | undefined {
  return live.approvals.find((q) => q.runId === runId);
}
