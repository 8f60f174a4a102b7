import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { execa } from 'execa';
import { Api } from 'grammy';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLog } from '../../src/kernel/log/logger.ts';
import { describeError } from '../../src/kernel/log/fatal.ts';
import { environmentSecrets, Secrets } from '../../src/kernel/log/secrets.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';

// A fetch error keeps the URL it called, and the Bot API's URLs hold the token: whatever is
// printed — a log line, a fatal error, a crash — is redacted, nested causes included.
const TOKEN = '7301234567:AAH-the-bots-token-must-never-show-';
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A Bot API stand-in: the first `resets` requests are cut off mid-way; then `answer` says what each method gets. */
async function botApi(resets: number, answer: (method: string, url: string) => { status: number; body: unknown }) {
  let seen = 0;
  const server: Server = createServer((request, response) => {
    if (seen++ < resets) return request.socket.destroy();
    const method = request.url!.split('/').at(-1)!;
    const { status, body } = answer(method, request.url!);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { apiRoot: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let api: Awaited<ReturnType<typeof botApi>>;
afterEach(() => api?.close());

/** grammY's HttpError of a getMe whose connection was cut: its `error` is the fetch error, URL and token included. */
async function fetchError(): Promise<Error> {
  api = await botApi(1, () => ({ status: 500, body: {} }));
  const failed = await new Api(TOKEN, { apiRoot: api.apiRoot }).getMe().then(
    () => undefined,
    (error: Error) => error,
  );
  if (!failed) throw new Error('getMe answered over a cut connection');
  return failed;
}
async function nestedFetchError(): Promise<Error> {
  return new AggregateError([new Error('starting failed', { cause: await fetchError() })], 'the bridge could not start');
}

describe('redaction of nested errors', () => {
  it('finds the token in a grammY fetch error nested in a cause in an AggregateError, and redacts it', async () => {
    const error = await nestedFetchError();
    const shown = describeError(error);
    expect(shown).toContain(`/bot${TOKEN}/getMe`); // the nesting is all printed…
    const secrets = new Secrets();
    secrets.add(TOKEN);
    const redacted = secrets.redact(shown);
    expect(redacted).not.toContain(TOKEN); // …and the token never
    expect(redacted).toContain('/bot[redacted]/getMe');
    expect(redacted).toMatch(/socket hang up|ECONNRESET/);
    expect(secrets.redact(`https://example.org/bot${encodeURIComponent(TOKEN)}/getMe`)).not.toContain(encodeURIComponent(TOKEN));
  });

  it('redacts it from a log line that carries the error', async () => {
    const error = await fetchError();
    let text = '';
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => done(void (text += chunk.toString())) });
    const secrets = new Secrets();
    secrets.add(TOKEN);
    createLog({ format: 'json', secrets, destination }).fatal({ err: error }, 'could not start');
    expect(text).toContain('could not start');
    expect(text).toContain('/bot[redacted]/getMe'); // the fetch error is in the line…
    expect(text).not.toContain(TOKEN); // …without the token
  });

  it('knows the environment’s secrets before any configuration is read', () => {
    expect(
      environmentSecrets({
        TELEGRAM_BOT_TOKEN: TOKEN,
        BRIDGE_API_TOKENS: 'ci=ci-token-0123456789,ide=ide-token-0123456789',
        BRIDGE_REDIS_URL: 'redis://:s3cr%40t-password@redis:6379/0',
        TELEGRAM_API_ROOT: 'https://bot:proxy-password-123@telegram-proxy.internal',
        BRIDGE_API_TLS_KEY: '/etc/key.pem',
        BRIDGE_WORKDIR: '/srv/work',
        HOME: '/root',
      }),
    ).toEqual(expect.arrayContaining([TOKEN, 'ci-token-0123456789', 'ide-token-0123456789', 's3cr@t-password', 'proxy-password-123']));
    expect(environmentSecrets({ BRIDGE_API_TLS_KEY: '/etc/key.pem', BRIDGE_WORKDIR: '/srv/work' })).toEqual([]);
  });
});

describe('a process that dies', () => {
  let dirs: { path: string; remove(): Promise<void> }[] = [];
  beforeEach(() => void (dirs = []));
  afterEach(async () => {
    for (const dir of dirs) await dir.remove();
  });

  it('the bridge: a fatal start-up error, after a fetch error on the way, never prints the token', async () => {
    // getMe is cut off once (a fetch error naming the URL), then answers; setMyCommands gets a
    // 404 from a proxy that quotes the path it could not route, which stops the start.
    api = await botApi(1, (method, url) =>
      method === 'getMe'
        ? { status: 200, body: { ok: true, result: { id: 7301234567, is_bot: true, first_name: 'Bridge', username: 'bridge_test_bot' } } }
        : { status: 404, body: { ok: false, error_code: 404, description: `Not Found: no route for ${api.apiRoot}${url}` } },
    );
    const [data, work] = [await tempDir('fatal-data-'), await tempDir('fatal-work-')];
    dirs.push(data, work);
    const bridge = startBridgeProcess({
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: api.apiRoot,
      BRIDGE_ALLOWED_USERS: '111',
      BRIDGE_DATA_DIR: data.path,
      BRIDGE_WORKDIR: work.path,
      BRIDGE_LOG_FORMAT: 'json',
    });
    const { code } = await bridge.exited;
    const printed = bridge.stdout() + bridge.stderr();
    expect(code).toBe(1);
    expect(printed).toMatch(/is unreachable: .*\/bot\[redacted\]\/getMe/); // the fetch error, in the log
    expect(printed).toMatch(/jsonl-bridge: fatal: .*no route for .*\/bot\[redacted\]\/setMyCommands/);
    expect(printed).not.toContain(TOKEN);
    expect(printed).not.toContain(encodeURIComponent(TOKEN));
  });

  it.each([
    ['an uncaught exception', `setTimeout(() => { throw error; });`],
    ['an unhandled rejection', `void Promise.reject(error);`],
    ['what a library prints on its own', `console.error('[grammY runner]', error); process.exitCode = 1;`],
  ])('%s is printed redacted, and the process exits 1', async (_, crash) => {
    const script = `
      import { environmentSecrets, Secrets } from './src/kernel/log/secrets.ts';
      import { exitOnUncaught, redactStandardStreams } from './src/kernel/log/fatal.ts';
      const secrets = new Secrets();
      for (const value of environmentSecrets(process.env)) secrets.add(value);
      exitOnUncaught('jsonl-bridge', secrets);
      redactStandardStreams(secrets);
      const error = new Error('a turn failed', { cause: new Error('request to https://api.telegram.org/bot' + process.env.TELEGRAM_BOT_TOKEN + '/sendMessage failed') });
      ${crash}`;
    const result = await execa('node', ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO,
      env: { TELEGRAM_BOT_TOKEN: TOKEN },
      reject: false,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('a turn failed');
    expect(result.stderr).toContain('/bot[redacted]/sendMessage');
    expect(result.stderr + result.stdout).not.toContain(TOKEN);
  });
});
