import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listening } from '../../kernel/http/listen.ts';
import { admit, forwardedBy, type Admission } from './metrics-access.ts';
import { PROMETHEUS_CONTENT_TYPE } from './metrics.ts';

/** What answers a scrape: the metrics as Prometheus text, or undefined when they are off. */
export type Scrape = () => Promise<string | undefined>;

/** A scrape's answer, whichever server asked: status, type and body. */
export interface ScrapeAnswer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** The answer to `GET /metrics` for someone `admit` judged. */
export async function answerScrape(admission: Admission, scrape: Scrape): Promise<ScrapeAnswer> {
  const text = 'text/plain; charset=utf-8';
  if (!admission.ok)
    return {
      status: admission.status,
      contentType: text,
      body: `${admission.reason}\n`,
      ...(admission.status === 401 ? { headers: { 'www-authenticate': 'Bearer' } } : {}),
    };
  const body = await scrape();
  if (body === undefined) return { status: 404, contentType: text, body: 'Metrics are off: OTEL_SDK_DISABLED=true.\n' };
  return { status: 200, contentType: PROMETHEUS_CONTENT_TYPE, body };
}

/**
 * BRIDGE_METRICS_ADDR: a plain HTTP listener serving `GET /metrics` and nothing else (how a
 * worker, which has no web server, is scraped). This machine may always scrape; others need
 * BRIDGE_METRICS_TOKEN when one is set.
 */
export class MetricsListener {
  private constructor(
    private readonly server: Server,
    readonly address: string,
  ) {}

  static async start(listen: { host: string; port: number }, scrape: Scrape, token: string | undefined): Promise<MetricsListener> {
    const server = createServer((request, response) => void serve(request, response, scrape, token));
    const listened = listening(server, 'BRIDGE_METRICS_ADDR', listen.host, listen.port);
    server.listen(listen.port, listen.host);
    await listened;
    const { port } = server.address() as AddressInfo;
    const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
    return new MetricsListener(server, `${host}:${port}`);
  }

  /** Where Prometheus scrapes it. */
  get url(): string {
    return `http://${this.address}/metrics`;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

async function serve(request: IncomingMessage, response: ServerResponse, scrape: Scrape, token: string | undefined): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (path !== '/metrics') return end(response, { status: 404, contentType: 'text/plain; charset=utf-8', body: 'Only /metrics is served here.\n' });
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return end(response, { status: 405, contentType: 'text/plain; charset=utf-8', body: 'GET /metrics.\n', headers: { allow: 'GET, HEAD' } });
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const admission = admit({ remote: request.socket.remoteAddress, authorization: header('authorization'), forwarded: forwardedBy(header) }, token, true);
  try {
    end(response, await answerScrape(admission, scrape), request.method === 'HEAD');
  } catch {
    end(response, { status: 500, contentType: 'text/plain; charset=utf-8', body: 'Collecting the metrics failed.\n' });
  }
}

function end(response: ServerResponse, answer: ScrapeAnswer, headOnly = false): void {
  response.writeHead(answer.status, { 'content-type': answer.contentType, 'cache-control': 'no-store', ...answer.headers });
  response.end(headOnly ? undefined : answer.body);
}
