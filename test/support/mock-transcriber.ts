import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the mock transcription API received, as it arrived. */
export interface TranscriptionRequest {
  path: string;
  authorization: string | undefined;
  model: string | undefined;
  fileName: string | undefined;
  fileType: string | undefined;
  bytes: Buffer;
}

export interface MockTranscriber {
  /** Base URL, as BRIDGE_TRANSCRIBE_URL takes it (`…/v1`). */
  url: string;
  requests: TranscriptionRequest[];
  /** What the next requests answer: a transcript, or an HTTP error. */
  answer: { text: string } | { status: number; message: string };
  close(): Promise<void>;
}

/** An OpenAI-compatible `/v1/audio/transcriptions` over real HTTP, parsing the multipart body as a server would. */
export async function startMockTranscriber(): Promise<MockTranscriber> {
  const mock: Omit<MockTranscriber, 'url' | 'close'> = { requests: [], answer: { text: 'hello from the voice note' } };
  const server = createServer((req, res) => {
    void (async () => {
      const { answer } = mock;
      // What a client asks to see the API is there and takes its key (`npm run doctor`).
      if (req.method === 'GET' && req.url === '/v1/models') {
        mock.requests.push({
          path: req.url,
          authorization: req.headers.authorization,
          model: undefined,
          fileName: undefined,
          fileType: undefined,
          bytes: Buffer.alloc(0),
        });
        if ('status' in answer)
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: answer.message } }));
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'whisper-1', object: 'model' }] }));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const form = await readForm(req);
      const file = form.get('file');
      const model = form.get('model');
      mock.requests.push({
        path: req.url,
        authorization: req.headers.authorization,
        model: typeof model === 'string' ? model : undefined,
        fileName: file instanceof File ? file.name : undefined,
        fileType: file instanceof File ? file.type : undefined,
        bytes: file instanceof File ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0),
      });
      if ('status' in answer) res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: answer.message } }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: answer.text }));
    })().catch((error: Error) => res.writeHead(500).end(error.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(mock, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

async function readForm(req: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request('http://mock/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: Buffer.concat(chunks),
  }).formData();
}
