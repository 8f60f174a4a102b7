import mattermost, { type Client4 } from '@mattermost/client';
import type { ReadyMattermostSettings } from './settings.ts';

/** Mattermost answered a call with an error: its HTTP status, its error id (`api.post.create_post.…`), and for a 429 the seconds to wait. */
export class MattermostError extends Error {
  override name = 'MattermostError';
  constructor(
    readonly status: number,
    message: string,
    readonly id?: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** Waits between attempts of a call that failed on the network or with a 5xx. */
const RETRY_MS = [500, 2000, 5000];

/**
 * The Mattermost REST API (v4) through its own client, Client4: its headers, its URLs, its
 * JSON. Calls go through `doFetchWithResponse` with `ignoreStatus`, so an error's status and
 * headers are read here: a 429 becomes a MattermostError with the seconds its X-Ratelimit-Reset
 * (or Retry-After) asks, for the send budget to wait out; network errors and 5xx are tried
 * again a few times.
 */
export class MattermostApi {
  readonly client: Client4;

  constructor(
    settings: Pick<ReadyMattermostSettings, 'url' | 'token'>,
    private readonly retries = RETRY_MS.length,
  ) {
    this.client = new mattermost.Client4();
    this.client.setUrl(settings.url);
    this.client.setToken(settings.token);
    this.client.setIncludeCookies(false);
  }

  /** A call under /api/v4: its JSON answer, or a MattermostError. A FormData body goes as multipart. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, path, body);
      } catch (error) {
        const again = !(error instanceof MattermostError) || error.status >= 500;
        if (!again || attempt >= this.retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt] ?? RETRY_MS.at(-1)));
      }
    }
  }

  private async once<T>(method: string, path: string, body: unknown): Promise<T> {
    const options = {
      method,
      ignoreStatus: true,
      ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
    };
    const { response, headers, data } = await (this.client as unknown as WithResponse).doFetchWithResponse(`${this.client.getBaseRoute()}${path}`, options);
    if (response.ok) return data as T;
    const answer = (typeof data === 'object' && data !== null ? data : { message: typeof data === 'string' ? data : '' }) as { message?: string; id?: string };
    const reset = Number(headers.get('X-Ratelimit-Reset') ?? headers.get('Retry-After'));
    throw new MattermostError(
      response.status,
      `${response.status} ${answer.message || response.statusText}`.trim(),
      answer.id,
      response.status === 429 ? (Number.isFinite(reset) && reset > 0 ? reset : 1) : undefined,
    );
  }
}

/** Client4's own call, which its typings keep private: the one that gives the status and headers of an answer it does not throw for. */
interface WithResponse {
  doFetchWithResponse(url: string, options: Record<string, unknown>): Promise<{ response: Response; headers: Headers; data: unknown }>;
}

/** Seconds Mattermost asked to wait, when `error` is its 429. */
export function retryAfter(error: unknown): number | undefined {
  return error instanceof MattermostError ? error.retryAfterS : undefined;
}

export function statusOf(error: unknown): number | undefined {
  return error instanceof MattermostError ? error.status : undefined;
}
