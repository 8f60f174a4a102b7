import { createParser } from 'eventsource-parser';
import { bearer } from './session.ts';

/**
 * The page's side of the bridge's API: the tab's session secret as a bearer header on every
 * call (the only credential the API takes), JSON in and out, and event streams read with fetch
 * (an EventSource cannot send the header, and a secret in a URL would land in logs).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole answer, for what it says besides the error. */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

function headers(json: boolean): Record<string, string> {
  const secret = bearer();
  return {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(secret ? { authorization: `Bearer ${secret}` } : {}),
  };
}

async function answer<T>(response: Response): Promise<T> {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, (body as { error?: string }).error ?? `${response.status} ${response.statusText}`, body);
  return body as T;
}

/**
 * A file of the API as an address an <img> or a download can use: the bytes fetched with the
 * header and handed over as a blob (an address of the API's own would go without it).
 */
export async function fileAddress(path: string): Promise<string> {
  const response = await fetch(`/api${path}`, { headers: headers(false) });
  if (!response.ok) throw new ApiError(response.status, `${path}: ${response.status}`);
  return URL.createObjectURL(await response.blob());
}

/** A text the API serves (the graph's SVG), with the session's credentials like every call. */
export async function getText(path: string): Promise<string> {
  const response = await fetch(`/api${path}`, { headers: headers(false) });
  if (!response.ok) throw new ApiError(response.status, `${path}: ${response.status}`);
  return response.text();
}

export async function get<T>(path: string): Promise<T> {
  return answer<T>(await fetch(`/api${path}`, { headers: headers(false) }));
}

export async function post<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(await fetch(`/api${path}`, { method: 'POST', headers: headers(true), body: JSON.stringify(body) }));
}

/**
 * Follows an event stream until `signal` aborts, calling `on` with each event's name and
 * parsed data; a dropped stream is opened again after a pause, with `onOpen` called each time
 * it (re)opens, so the page can fetch what it missed.
 */
export async function follow(path: string, on: (event: string, data: unknown) => void, signal: AbortSignal, onOpen?: () => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const response = await fetch(`/api${path}`, { headers: headers(false), signal });
      if (!response.ok || !response.body) throw new ApiError(response.status, `stream ${path}: ${response.status}`);
      onOpen?.();
      const parser = createParser({ onEvent: (message) => on(message.event ?? 'message', JSON.parse(message.data)) });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      if (path.includes('/log')) return; // a run's log ends when the run does
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && error.status === 401) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
