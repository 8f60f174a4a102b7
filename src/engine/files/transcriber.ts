import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { jsonOf } from '../../kernel/protocols/decoder.ts';

export interface TranscriberConfig {
  /** Base URL of an OpenAI-compatible API: `<url>/audio/transcriptions` is called. */
  url: string;
  key?: string;
  model: string;
}

/** BRIDGE_TRANSCRIBE_URL, _KEY and _MODEL; none without the URL. */
export function transcriberConfig(env: NodeJS.ProcessEnv): TranscriberConfig | undefined {
  const url = env.BRIDGE_TRANSCRIBE_URL?.trim();
  if (!url) return undefined;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new ConfigError(`BRIDGE_TRANSCRIBE_URL: expected the http(s) base URL of an OpenAI-compatible API, like http://127.0.0.1:8000/v1, got "${url}"`);
  const key = env.BRIDGE_TRANSCRIBE_KEY?.trim();
  return { url, ...(key ? { key } : {}), model: env.BRIDGE_TRANSCRIBE_MODEL?.trim() || 'whisper-1' };
}

/** The endpoint may take its time on a long recording, but not forever. */
const TIMEOUT_MS = 120_000;

/**
 * Speech to text through an OpenAI-compatible `/audio/transcriptions` endpoint (OpenAI, Groq,
 * a local whisper server): the file as multipart, the model, the key as a bearer token.
 * Failures are sentences: the chat is told what went wrong.
 */
export class Transcriber {
  constructor(private readonly config: TranscriberConfig) {}

  async transcribe(path: string, mimeType = 'application/octet-stream'): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([await readFile(path)], { type: mimeType }), basename(path));
    form.append('model', this.config.model);
    form.append('response_format', 'json');
    let response: Response;
    try {
      response = await fetch(`${this.config.url.replace(/\/+$/, '')}/audio/transcriptions`, {
        method: 'POST',
        headers: this.config.key ? { authorization: `Bearer ${this.config.key}` } : {},
        body: form,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const cause =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      throw new Error(`the transcription service could not be reached (${cause})`, { cause: error });
    }
    const body = await response.text();
    if (!response.ok) throw new Error(`the transcription service answered HTTP ${response.status}${errorDetail(body)}`);
    const json = jsonOf<{ text?: unknown } | null>(body);
    if (json == null) throw new Error('the transcription service answered something other than JSON');
    const { text } = json;
    if (typeof text !== 'string') throw new Error('the transcription service answered without a transcript');
    return text.trim();
  }
}

/** OpenAI-style `{"error": {"message"}}`, briefly, when there is one. */
function errorDetail(body: string): string {
  const message = jsonOf<{ error?: { message?: unknown } }>(body)?.error?.message;
  return typeof message === 'string' ? `: ${message.slice(0, 200)}` : '';
}
