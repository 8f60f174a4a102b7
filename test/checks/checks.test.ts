import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config.ts';
import type { Adapter } from '../../src/engine/adapters/load.ts';
import { formatCheck } from '../../src/kernel/ports/check-result.ts';
import type { CheckResult } from '../../src/kernel/ports/check-result.ts';
import { checkCli } from '../../src/app/checks/cli-checks.ts';
import { checkApiAddress, checkMcpListen, checkRedis, checkTranscription } from '../../src/app/checks/service-checks.ts';
import { checkDataDir, checkNode } from '../../src/app/checks/system-checks.ts';
import { checkTelegram } from '../../src/transports/telegram/reach.ts';
import { tempDir } from '../support/bridge-process.ts';
import { CLI_BINARIES, REPO_ROOT } from '../support/cli-env.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';
import { freePort, REFUSING_PORT } from '../support/free-port.ts';
import { startMockTranscriber } from '../support/mock-transcriber.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';

// Each check of `npm run doctor`, against the real thing it checks: present, absent, wrong.
const lines = (results: CheckResult | CheckResult[]) => [results].flat().map(formatCheck);

let scratch: { path: string; remove(): Promise<void> };
beforeAll(async () => (scratch = await tempDir('doctor-')));
afterAll(() => scratch.remove());

describe('Node', () => {
  it('passes 20 and newer, and says how to upgrade an older one', () => {
    expect(lines(checkNode('20.20.2'))).toEqual(['✓ Node: 20.20.2']);
    expect(lines(checkNode('18.19.0'))).toEqual(['✗ Node: 18.19.0, older than 20. Install Node 20 or newer (https://nodejs.org, or nvm install 20).']);
  });
});

describe('data directory', () => {
  it('passes an owner-only directory, with its free space', async () => {
    const dir = join(scratch.path, 'private');
    await mkdir(dir, { mode: 0o700 });
    expect(lines(await checkDataDir(dir))).toEqual([expect.stringMatching(new RegExp(`^✓ data directory: ${dir}, owner-only, [\\d.]+ GB free$`))]);
  });

  it('passes one not made yet, and makes nothing', async () => {
    const dir = join(scratch.path, 'later', 'data');
    expect(lines(await checkDataDir(dir))).toEqual([expect.stringMatching(/^✓ data directory: .* will be made at start \(owner-only\), [\d.]+ GB free$/)]);
    await expect(import('node:fs/promises').then((fs) => fs.stat(join(scratch.path, 'later')))).rejects.toThrow();
  });

  it('fails one others can read, and a file', async () => {
    const dir = join(scratch.path, 'open');
    await mkdir(dir);
    await chmod(dir, 0o755);
    expect(lines(await checkDataDir(dir))).toEqual([
      `✗ data directory: ${dir} is readable by others (mode 755). chmod 700 ${dir}: it holds sessions, logs and the audit trail.`,
    ]);
    const file = join(scratch.path, 'a-file');
    await writeFile(file, '');
    expect(lines(await checkDataDir(file))).toEqual([`✗ data directory: ${file} is not a directory. Set BRIDGE_DATA_DIR to a directory.`]);
  });
});

describe('Telegram', () => {
  it('names the bot and its group privacy, on or off', async () => {
    for (const groupPrivacy of [true, false]) {
      const telegram = await FakeTelegram.start({ botUsername: 'doctor_bot', groupPrivacy });
      try {
        const [token, privacy] = lines(await checkTelegram({ token: telegram.token, apiRoot: telegram.apiRoot }));
        expect(token).toMatch(/^✓ Telegram token: @doctor_bot \(id \d+\)$/);
        expect(privacy).toMatch(
          groupPrivacy
            ? /^✓ group privacy: on: in groups the bot sees commands, replies .*\/setprivacy/
            : /^✓ group privacy: off: in groups the bot sees every message$/,
        );
      } finally {
        await telegram.close();
      }
    }
  });

  it('fails no token, a refused token, and an unreachable Telegram', async () => {
    expect(lines(await checkTelegram({ apiRoot: 'https://api.telegram.org' }))).toEqual([
      '✗ Telegram token: TELEGRAM_BOT_TOKEN is not set. Set it to the token @BotFather gave your bot; for the console alone (npm start -- --console), which needs none, check with npm run doctor -- --console.',
    ]);
    const telegram = await FakeTelegram.start();
    try {
      expect(lines(await checkTelegram({ token: '42:wrong-00000000000000000000000000000', apiRoot: telegram.apiRoot }))).toEqual([
        "✗ Telegram token: refused by Telegram (401). Copy the bot's token from @BotFather (/mybots → your bot → API Token) into TELEGRAM_BOT_TOKEN.",
      ]);
    } finally {
      await telegram.close();
    }
    const port = REFUSING_PORT;
    expect(lines(await checkTelegram({ token: '42:wrong-00000000000000000000000000000', apiRoot: `http://127.0.0.1:${port}` }))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^✗ Telegram token: Telegram \\(127\\.0\\.0\\.1:${port}\\) is unreachable: .*ECONNREFUSED.*\\. Check the network, a proxy, or TELEGRAM_API_ROOT\\.$`,
        ),
      ),
    ]);
  });
});

describe('CLIs', () => {
  let adapters: Map<string, Adapter>;
  let env: Record<string, string>;
  beforeAll(async () => {
    const home = join(scratch.path, 'home');
    await mkdir(join(home, 'codex'), { recursive: true });
    // Only what a CLI needs to start: no key of this machine's leaks in.
    env = { PATH: `${join(REPO_ROOT, 'node_modules/.bin')}:/usr/local/bin:/usr/bin:/bin`, HOME: home, CODEX_HOME: join(home, 'codex'), TMPDIR: home };
    // The adapters alone: as root with no agent user, `auto` would stop the configuration.
    ({ adapters } = await loadConfig({ env: { BRIDGE_DROID_COMMAND: CLI_BINARIES.droid, BRIDGE_SANDBOX: 'off' } }));
  });

  it('finds each CLI, its version, and the credentials it has', async () => {
    const keys = { ANTHROPIC_API_KEY: 'sk-ant-test', CODEX_API_KEY: 'sk-test', FACTORY_API_KEY: 'fk-test' };
    const claude = lines(await checkCli(adapters.get('claude')!, { ...env, ...keys }));
    expect(claude).toEqual([
      expect.stringMatching(/^✓ claude: 2\.1\.\d+ \(Claude Code\) at .*node_modules\/\.bin\/claude$/),
      expect.stringMatching(/^✓ claude credentials: `\/\S*node_modules\/\.bin\/claude auth status` says it is logged in$/),
    ]);
    expect(lines(await checkCli(adapters.get('codex')!, { ...env, ...keys }))).toEqual([
      expect.stringMatching(/^✓ codex: codex-cli 0\.\d+\.\d+ at /),
      '✓ codex credentials: CODEX_API_KEY is set',
    ]);
    expect(lines(await checkCli(adapters.get('droid')!, { ...env, ...keys }))).toEqual([
      expect.stringMatching(/^✓ droid: 0\.\d+\.\d+ at /),
      '✓ droid credentials: FACTORY_API_KEY is set',
    ]);
  });

  it('says which have no credentials, asking the CLI itself', async () => {
    // The commands shown are the paths found: copied into a shell whose PATH lacks node_modules/.bin, they run.
    const bin = join(REPO_ROOT, 'node_modules/.bin');
    expect(lines(await checkCli(adapters.get('claude')!, env))[1]).toBe(
      `✗ claude credentials: \`${bin}/claude auth status\` says "loggedIn": false. Set ANTHROPIC_API_KEY where the bridge starts (export ANTHROPIC_API_KEY=…), or run \`claude\` once in a terminal and log in there.`,
    );
    // codex 0.169 sends CODEX_API_KEY, never OPENAI_API_KEY, to the OpenAI API: that one is no credential.
    expect(lines(await checkCli(adapters.get('codex')!, { ...env, OPENAI_API_KEY: 'sk-ignored' }))[1]).toBe(
      `✗ codex credentials: \`${bin}/codex login status\` says Not logged in. Set CODEX_API_KEY where the bridge starts (export CODEX_API_KEY=…; codex ignores OPENAI_API_KEY), or run \`codex login --with-api-key\` once.`,
    );
    expect(lines(await checkCli(adapters.get('droid')!, env))[1]).toMatch(
      /^✗ droid credentials: `\/\S*droid doctor --auth --json` says no stored login found\. Set FACTORY_API_KEY where the bridge starts/,
    );
  });

  it('fails a CLI not found, and one whose version command fails', async () => {
    const missing = { ...adapters.get('codex')!, resolvedCommand: '/opt/nowhere/codex' };
    expect(lines(await checkCli(missing, env))).toEqual([
      '✗ codex: /opt/nowhere/codex is not found on PATH. Install it, or set BRIDGE_CODEX_COMMAND to its path (or remove codex.json from adapters/ if no chat should use it).',
    ]);
    // Not the default, and no BRIDGE_CODEX_COMMAND names it: nothing needs it, so it is no fault.
    const notInstalled = { ...adapters.get('codex')!, command: 'codex-not-installed', resolvedCommand: 'codex-not-installed' };
    expect(await checkCli(notInstalled, env, 'claude')).toEqual([expect.objectContaining({ ok: true, optional: true })]);
    expect(lines(await checkCli(notInstalled, env, 'claude'))).toEqual([
      '– codex: not installed (codex-not-installed is not on PATH), and optional: claude is the default CLI. Install it, or set BRIDGE_CODEX_COMMAND to its path, for /cli codex and /spawn --cli codex.',
    ]);
    // The default CLI, or one a variable names, must be there.
    expect(lines(await checkCli(notInstalled, env, 'codex'))[0]).toMatch(/^✗ codex: codex-not-installed is not found on PATH/);
    expect(lines(await checkCli(missing, env, 'claude'))[0]).toMatch(/^✗ codex: \/opt\/nowhere\/codex is not found on PATH/);
    const broken = join(scratch.path, 'broken-cli');
    await writeFile(broken, '#!/bin/sh\necho "warming up"\necho "error: libfoo.so.1 missing" >&2\nexit 127\n', { mode: 0o755 });
    expect(lines(await checkCli({ ...adapters.get('claude')!, resolvedCommand: broken }, env))).toEqual([
      `✗ claude: \`${broken} --version\` failed (127): error: libfoo.so.1 missing. Check the binary at ${broken}, or set BRIDGE_CLAUDE_COMMAND to a working one.`,
    ]);
  });
});

describe('services', () => {
  let taken: Server;
  let takenPort: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('the MCP endpoint: a free address passes and is let go, a taken one fails', async () => {
    const port = await freePort();
    expect(lines(await checkMcpListen({ host: '127.0.0.1', port }))).toEqual([`✓ MCP endpoint: can listen on 127.0.0.1:${port}`]);
    expect(lines(await checkMcpListen({ host: '127.0.0.1', port }))).toEqual([`✓ MCP endpoint: can listen on 127.0.0.1:${port}`]); // let go: free again
    expect(lines(await checkMcpListen({ host: '127.0.0.1', port: takenPort }))).toEqual([
      `✗ MCP endpoint: cannot listen on 127.0.0.1:${takenPort}: the port is in use. Set BRIDGE_MCP_LISTEN to a free host:port of this machine.`,
    ]);
  });

  describe('Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => (redis = await startRedis()));
    afterAll(() => redis?.stop());

    it('answers with its version; a wrong password and an absent server fail, the password unshown', async () => {
      expect(lines(await checkRedis(redis.url))).toEqual([
        expect.stringMatching(new RegExp(`^✓ Redis: redis://127\\.0\\.0\\.1:${redis.port} answers \\(Redis \\d+\\.\\d+\\.\\d+\\)$`)),
      ]);
      const [wrong] = lines(await checkRedis(`redis://:not-the-password@127.0.0.1:${redis.port}`));
      expect(wrong).toMatch(/^✗ Redis: redis:\/\/127\.0\.0\.1:\d+ refused the credentials: WRONGPASS.*\. Fix the user and password in BRIDGE_REDIS_URL\.$/);
      expect(wrong).not.toContain('not-the-password');
      const port = REFUSING_PORT;
      expect(lines(await checkRedis(`redis://127.0.0.1:${port}`))).toEqual([
        expect.stringMatching(new RegExp(`^✗ Redis: redis://127\\.0\\.0\\.1:${port} does not answer: .*ECONNREFUSED.*\\. Start Redis`)),
      ]);
    });
  });

  it('the transcription API: answers with its key; a refused key and an absent server fail', async () => {
    const mock = await startMockTranscriber();
    try {
      expect(lines(await checkTranscription({ url: mock.url, key: 'tk-123', model: 'whisper-1' }))).toEqual([
        `✓ transcription: ${mock.url} answers (model whisper-1)`,
      ]);
      expect(mock.requests.at(-1)).toMatchObject({ path: '/v1/models', authorization: 'Bearer tk-123' });
      mock.answer = { status: 401, message: 'invalid key' };
      expect(lines(await checkTranscription({ url: mock.url, key: 'tk-wrong', model: 'whisper-1' }))).toEqual([
        `✗ transcription: ${mock.url} refused the key (401). Set BRIDGE_TRANSCRIBE_KEY to a key this API accepts.`,
      ]);
    } finally {
      await mock.close();
    }
    const port = REFUSING_PORT;
    expect(lines(await checkTranscription({ url: `http://127.0.0.1:${port}/v1`, model: 'whisper-1' }))).toEqual([
      expect.stringMatching(/^✗ transcription: http:\/\/127\.0\.0\.1:\d+\/v1 does not answer: .*ECONNREFUSED.*\. Start the transcription server/),
    ]);
  });

  it('the API address: free with clients passes; taken, without clients, or a certificate without its key fails', async () => {
    const port = await freePort();
    expect(lines(await checkApiAddress({ host: '127.0.0.1', port, tokens: [{ name: 'ci', token: 'x'.repeat(16) }], scopes: {}, noChatMode: 'safe' }))).toEqual([
      `✓ SubagentService: can listen on 127.0.0.1:${port}`,
      '✓ SubagentService clients: ci',
    ]);
    expect(lines(await checkApiAddress({ host: '127.0.0.1', port: takenPort, tokens: [], scopes: {}, noChatMode: 'safe' }))).toEqual([
      `✗ SubagentService: cannot listen on 127.0.0.1:${takenPort}: the port is in use. Set BRIDGE_API_ADDR to a free host:port of this machine.`,
    ]);
    const noClients = lines(
      await checkApiAddress({
        host: '127.0.0.1',
        port,
        tokens: [],
        scopes: {},
        noChatMode: 'safe',
        tls: { cert: Buffer.from('not a certificate'), key: Buffer.from('nor a key') },
      }),
    );
    expect(noClients[1]).toMatch(
      /^✗ SubagentService TLS: the certificate and key are unusable: .*\. Point BRIDGE_API_TLS_CERT and BRIDGE_API_TLS_KEY at a PEM certificate and its own key\.$/,
    );
    expect(noClients[2]).toBe(
      '✗ SubagentService clients: BRIDGE_API_TOKENS is empty, so every call is refused. Set BRIDGE_API_TOKENS=name=<a token of 16+ characters>.',
    );
  });
});
