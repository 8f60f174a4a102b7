import { useEffect, useState } from 'preact/hooks';
import { follow, get } from './api.ts';
import type { OrchestrationView, Question, RunView, WebMessage } from './types.ts';

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

export function useLive(): Live {
  const [live, setLive] = useState<Live>({ runs: [], orchestrations: [], approvals: [], chat: [], connected: false });
  useEffect(() => {
    const stop = new AbortController();
    // Each (re)opening of the stream fetches everything once: nothing changed while it was closed is missed.
    const refresh = async () => {
      const [runs, orchestrations, approvals, chat] = await Promise.all([
        get<RunView[]>('/runs'),
        get<OrchestrationView[]>('/orchestrations'),
        get<Question[]>('/approvals'),
        get<WebMessage[]>('/chat'),
      ]);
      setLive({ runs, orchestrations, approvals, chat, connected: true });
    };
    void follow(
      '/events',
      (event, data) => {
        if (event === 'hello') void refresh();
        else if (event === 'run') setLive((l) => ({ ...l, runs: upsert(l.runs, data as RunView, 'runId') }));
        else if (event === 'orchestration') setLive((l) => ({ ...l, orchestrations: upsert(l.orchestrations, data as OrchestrationView, 'id') }));
        else if (event === 'approvals') setLive((l) => ({ ...l, approvals: data as Question[] }));
        else if (event === 'chat') setLive((l) => ({ ...l, chat: upsert(l.chat, data as WebMessage, 'id', false) }));
      },
      stop.signal,
      () => setLive((l) => ({ ...l, connected: true })),
    ).catch(() => setLive((l) => ({ ...l, connected: false })));
    return () => stop.abort();
  }, []);
  return live;
}

/** The question a run waits on, if it waits for someone's answer. */
export function questionOf(live: Pick<Live, 'approvals'>, runId: string): Question | undefined {
  return live.approvals.find((q) => q.runId === runId);
}
