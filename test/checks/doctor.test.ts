import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCTOR_TEST_MS, startDoctorProcess, tempDir } from '../support/bridge-process.ts';
import { CLI_BINARIES, REPO_ROOT } from '../support/cli-env.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';
import { REFUSING_PORT, freePort } from '../support/free-port.ts';
import { startMockTranscriber, type MockTranscriber } from '../support/mock-transcriber.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { startMockModel, type MockModel } from '../support/mock-model/index.ts';
import { startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// `npm run doctor` as an operator runs it: a line per check, in order, and its exit status.
let telegram: FakeTelegram;
let redis: RedisServer;
let transcriber: MockTranscriber;
let model: MockModel;
let scratch: { path: string; remove(): Promise<void> };
let env: Record<string, string>;
beforeAll(async () => {
  [telegram, redis, transcriber, scratch, model] = await Promise.all([
    FakeTelegram.start({ botUsername: 'doctor_bot' }),
    startRedis(),
    startMockTranscriber(),
    tempDir('doctor-'),
    startMockModel(),
  ]);
  const home = join(scratch.path, 'home');
  await mkdir(join(home, 'codex'), { recursive: true });
  await mkdir(join(scratch.path, 'data'), { mode: 0o700 });
  env = {
    PATH: `${join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
    HOME: home,
    CODEX_HOME: join(home, 'codex'),
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    BRIDGE_DATA_DIR: join(scratch.path, 'data'),
    BRIDGE_CLAUDE_COMMAND: CLI_BINARIES.claude,
    BRIDGE_CODEX_COMMAND: CLI_BINARIES.codex,
    BRIDGE_DROID_COMMAND: CLI_BINARIES.droid,
    ANTHROPIC_API_KEY: 'sk-ant-doctor',
    CODEX_API_KEY: 'sk-doctor',
    FACTORY_API_KEY: 'fk-doctor',
    // Each CLI's model API is asked: here the mock, as there is no network.
    ANTHROPIC_BASE_URL: model.url,
    OPENAI_BASE_URL: `${model.url}/v1`,
    FACTORY_API_BASE_URL: model.url,
    BRIDGE_REDIS_URL: redis.url,
    BRIDGE_QUEUE_SECRET: 'doctor-queue-secret-0123456789abcdef',
    BRIDGE_TRANSCRIBE_URL: transcriber.url,
    BRIDGE_TRANSCRIBE_KEY: 'transcribe-key-0123456789',
    BRIDGE_API_ADDR: `127.0.0.1:${await freePort()}`,
    BRIDGE_API_TOKENS: 'ci=api-token-0123456789abcdef',
    BRIDGE_WEB_ADDR: `127.0.0.1:${await freePort()}`,
    BRIDGE_METRICS_ADDR: `127.0.0.1:${await freePort()}`,
    BRIDGE_METRICS_TOKEN: 'metrics-token-0123456789',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20otlp-token-0123456789',
  };
});
afterAll(async () => {
  await Promise.all([telegram?.close(), redis?.stop(), transcriber?.close(), model?.close()]);
  await scratch?.remove();
});

async function doctor(overrides: Record<string, string> = {}, args: string[] = []) {
  const run = startDoctorProcess({ ...env, ...overrides }, args);
  const { code } = await run.exited;
  return { code, lines: run.stdout().trim().split('\n'), stderr: run.stderr() };
}

describe('npm run doctor', { timeout: DOCTOR_TEST_MS }, () => {
  it('checks everything in order, all ✓, exits 0, and shows no secret', async () => {
    const { code, lines, stderr } = await doctor();
    expect(stderr).toBe('');
    expect(lines.map((line) => line.replace(/:.*/, ''))).toEqual([
      '✓ Node',
      '✓ data directory',
      '✓ Telegram token',
      '✓ group privacy',
      '! agent user',
      '! sandbox',
      '✓ claude',
      '✓ claude credentials',
      '✓ claude model API',
      '✓ codex',
      '✓ codex credentials',
      '✓ codex model API',
      // Installed by npm ci (the suite runs it), not the default: no key, no fault; with no
      // COPILOT_PROVIDER_BASE_URL it uses GitHub's API, not one of its own to ask after.
      '✓ copilot',
      '– copilot credentials',
      '✓ droid',
      '✓ droid credentials',
      '✓ droid model API',
      // Installed by npm ci (the suite runs it), but not the default: no key, and no fault.
      '✓ gemini',
      '– gemini credentials',
      '– gemini model API',
      '– opencode',
      // The same for Qwen Code; its model API is the OpenAI one codex is pointed at here.
      '✓ qwen',
      '– qwen credentials',
      '✓ qwen model API',
      '✓ MCP endpoint',
      '✓ Redis',
      '✓ transcription',
      '✓ SubagentService',
      '✓ SubagentService clients',
      '✓ web server',
      '✓ web pages',
      '✓ metrics',
      '✓ metrics listener',
      '✓ metrics export',
      'All good',
    ]);
    expect(code).toBe(0);
    expect(lines).toEqual(
      expect.arrayContaining([
        `✓ metrics: served at ${env.BRIDGE_WEB_ADDR!.replace(/^/, 'http://')}/metrics, to this machine, and to others with BRIDGE_METRICS_TOKEN`,
        `✓ metrics listener: can listen on ${env.BRIDGE_METRICS_ADDR}: Prometheus scrapes http://${env.BRIDGE_METRICS_ADDR}/metrics`,
        '✓ metrics export: to http://127.0.0.1:4318/v1/metrics (http/protobuf) every 60 s',
      ]),
    );
    const output = lines.join('\n');
    for (const secret of [
      telegram.token,
      redis.password,
      'doctor-queue-secret-0123456789abcdef',
      'transcribe-key-0123456789',
      'api-token-0123456789abcdef',
      'metrics-token-0123456789',
      'otlp-token-0123456789',
    ])
      expect(output).not.toContain(secret);
  });

  it('marks what is wrong with its fix, goes on to the rest, and exits 1', async () => {
    const { code, lines } = await doctor({
      TELEGRAM_BOT_TOKEN: '42:refused-000000000000000000000000000',
      ANTHROPIC_API_KEY: '',
      BRIDGE_REDIS_URL: `redis://127.0.0.1:${REFUSING_PORT}`,
    });
    expect(code).toBe(1);
    expect(lines).toContain(
      "✗ Telegram token: refused by Telegram (401). Copy the bot's token from @BotFather (/mybots → your bot → API Token) into TELEGRAM_BOT_TOKEN.",
    );
    expect(lines).toContain(
      '✗ claude credentials: `' +
        CLI_BINARIES.claude +
        ' auth status` says "loggedIn": false. Set ANTHROPIC_API_KEY where the bridge starts (export ANTHROPIC_API_KEY=…), or run `claude` once in a terminal and log in there.',
    );
    expect(lines.find((line) => line.startsWith('✗ Redis'))).toMatch(/does not answer/);
    expect(lines).toContain('✓ transcription: ' + transcriber.url + ' answers (model whisper-1)'); // the rest is still checked
    expect(lines.at(-1)).toBe('Fix what is marked ✗, then run npm run doctor again.');
  });

  it('says, for each CLI, where its model API is and whether it answered, and what to check when it does not', async () => {
    const closed = `http://127.0.0.1:${REFUSING_PORT}`;
    const { code, lines } = await doctor({ ANTHROPIC_BASE_URL: closed });
    expect(code).toBe(1);
    expect(lines).toContain(
      `✗ claude model API: ${closed} (ANTHROPIC_BASE_URL) did not answer: connection refused (ECONNREFUSED). Check this machine's network and DNS, and ANTHROPIC_BASE_URL: each turn on claude waits on this API.`,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^✓ codex model API: ${model.url}/v1 \\(OPENAI_BASE_URL\\) answered \\(HTTP \\d+ in \\d+ ms\\)$`)),
    );
  });

  it("warns that agents run as the bridge's own user without BRIDGE_AGENT_USER", async () => {
    const { lines } = await doctor();
    expect(lines.find((line) => line.startsWith('! agent user'))).toMatch(
      /^! agent user: agents run as the bridge's own user \(uid \d+\): their tools can read the bot token .*\. Make a user for them \(useradd --create-home --shell \/bin\/bash jsonl-agent\), give it its own CLI credentials, and set BRIDGE_AGENT_USER=jsonl-agent\.$/,
    );
  });

  it.skipIf(cannotSwitchUser())(`asks the CLIs as BRIDGE_AGENT_USER, in its home (${cannotSwitchUser() ?? AGENT_USER})`, async () => {
    // A claude that says who asked it, where the agent user can run it.
    const bin = join(scratch.path, 'bin');
    await mkdir(bin, { recursive: true });
    await chmod(scratch.path, 0o755);
    await writeFile(join(bin, 'claude'), '#!/bin/sh\necho "uid $(id -u) home $HOME"\n', { mode: 0o755 });
    const { uid } = agentIds()!;
    const { lines } = await doctor({ BRIDGE_AGENT_USER: AGENT_USER, BRIDGE_CLAUDE_COMMAND: join(bin, 'claude') });
    expect(lines).toContain(
      `✓ agent user: ${AGENT_USER} (uid ${uid}), home /home/${AGENT_USER}, files in /tmp/jsonl-bridge-agents-${uid}; the CLIs below are asked as this user`,
    );
    expect(lines).toContain(`✓ claude: uid ${uid} home /home/${AGENT_USER} at ${join(bin, 'claude')}`);
  });

  it('refuses a malformed token without sending it anywhere or showing it', async () => {
    const { code, lines } = await doctor({ TELEGRAM_BOT_TOKEN: 'abc' });
    expect(code).toBe(1);
    expect(lines).toContain(
      "✗ Telegram token: TELEGRAM_BOT_TOKEN: expected the token @BotFather gave your bot (its id, a colon, then 35 letters, digits, _ or -: 123456789:AAE…), got 3 characters that are not one. Copy the bot's token from @BotFather (/mybots → your bot → API Token) into TELEGRAM_BOT_TOKEN.",
    );
    expect(lines.join('\n')).not.toMatch(/botabc|abc\//);
  });

  it('says what to type where the bridge is root without BRIDGE_AGENT_USER: auto would run its CLIs as root unwalled, so it does not start', async () => {
    const { lines } = await doctor({ BRIDGE_SANDBOX: 'auto' });
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^✗ configuration: the bridge runs as root with no BRIDGE_AGENT_USER, .*`useradd --create-home jsonl-agent && BRIDGE_AGENT_USER=jsonl-agent npm start`.*BRIDGE_SANDBOX=off/,
      ),
    );
  });

  it.skipIf(cannotSwitchUser())(
    `names what keeps the walls down, not what is installed: bubblewrap that cannot run here (${cannotSwitchUser() ?? AGENT_USER})`,
    async () => {
      // A bwrap that fails as one does where user namespaces are off; socat is the real one.
      const bin = join(scratch.path, 'refusing-bwrap');
      await mkdir(bin, { recursive: true });
      await writeFile(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
      const { lines } = await doctor({ BRIDGE_SANDBOX: 'auto', BRIDGE_AGENT_USER: AGENT_USER, PATH: `${bin}:${env.PATH}` });
      const line = lines.find((found) => found.startsWith('! sandbox'));
      expect(line).toMatch(
        /^! sandbox: BRIDGE_SANDBOX=auto runs CLIs without walls: bubblewrap cannot run here \(bwrap: No permissions to create new namespace\)/,
      );
      expect(line).toMatch(/\. Let bubblewrap make user namespaces here .*, so each CLI runs in walls\.$/);
      expect(line).not.toMatch(/Install/);
    },
  );

  it.skipIf(cannotSwitchUser())(`says the walls are up with BRIDGE_AGENT_USER where bubblewrap runs (${cannotSwitchUser() ?? AGENT_USER})`, async () => {
    const { uid } = agentIds()!;
    const { lines } = await doctor({
      BRIDGE_SANDBOX: 'auto',
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_SANDBOX_ALLOW: 'registry.npmjs.org, *.pypi.org',
      BRIDGE_SANDBOX_INTERNAL: '10.0.0.0/8',
    });
    expect(lines).toContain(
      `✓ sandbox: every CLI runs in a bubblewrap sandbox as ${AGENT_USER} (BRIDGE_AGENT_USER, uid ${uid}); beyond its model API it reaches registry.npmjs.org, *.pypi.org (BRIDGE_SANDBOX_ALLOW); of internal addresses, a chat's list may open 10.0.0.0/8 (BRIDGE_SANDBOX_INTERNAL)`,
    );
    // In walls a CLI reaches its API through the bridge's credential proxy: so does the doctor.
    expect(lines).toContainEqual(expect.stringMatching(/^✓ claude model API: \S+ \(ANTHROPIC_BASE_URL\) through the credential proxy answered \(HTTP \d+/));
  });

  it('checks what the console needs with --console: no token, no failure', async () => {
    const without = await doctor({ TELEGRAM_BOT_TOKEN: '' });
    expect(without.code).toBe(1);
    expect(without.lines).toContainEqual(
      expect.stringMatching(/^✗ chat apps: no chat app is set: set TELEGRAM_BOT_TOKEN, or SLACK_BOT_TOKEN .*DISCORD_BOT_TOKEN.*npm run doctor -- --console/),
    );
    const { code, lines } = await doctor({ TELEGRAM_BOT_TOKEN: '' }, ['--console']);
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(lines.some((line) => line.includes('Telegram'))).toBe(false);
    expect(code).toBe(0);
  });

  it('takes a CLI nothing needs as optional: codex of node_modules/.bin without its key fails nothing for the console', async () => {
    // As the README's quick start has it: claude's key alone, codex found on npm's PATH, droid not installed.
    const { code, lines } = await doctor(
      { TELEGRAM_BOT_TOKEN: '', BRIDGE_CODEX_COMMAND: '', CODEX_API_KEY: '', BRIDGE_DROID_COMMAND: '', FACTORY_API_KEY: '' },
      ['--console'],
    );
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(lines.find((line) => line.startsWith('– codex credentials'))).toMatch(
      /^– codex credentials: .*, and optional: claude is the default CLI\. For \/cli codex and \/spawn --cli codex: Set CODEX_API_KEY/,
    );
    expect(code).toBe(0);
    // Named by BRIDGE_CODEX_COMMAND, or the default, it is needed: its missing key is a fault.
    const named = await doctor({ TELEGRAM_BOT_TOKEN: '', CODEX_API_KEY: '' }, ['--console']);
    expect(named.lines.find((line) => line.startsWith('✗ codex credentials'))).toBeDefined();
    const byDefault = await doctor({ TELEGRAM_BOT_TOKEN: '', BRIDGE_CODEX_COMMAND: '', CODEX_API_KEY: '', BRIDGE_DEFAULT_CLI: 'codex' }, ['--console']);
    expect(byDefault.lines.find((line) => line.startsWith('✗ codex credentials'))).toBeDefined();
    expect(byDefault.code).toBe(1);
  });

  it('stops at a configuration it cannot read, naming the variable', async () => {
    const { code, lines } = await doctor({ SUBAGENTS_MAX_CONCURRENT: 'many' });
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(/^✓ Node: /),
      '✗ configuration: SUBAGENTS_MAX_CONCURRENT: expected a whole number of at least 1, got "many". Fix it: nothing else can be checked until the bridge can read its configuration.',
    ]);
  });
});

describe('npm run doctor beside a running bridge', { timeout: DOCTOR_TEST_MS }, () => {
  let world: TelegramWorld | undefined;
  let other: Server | undefined;
  afterAll(async () => {
    await world?.stop();
    other?.close();
  });

  it("says the bridge runs (pid, since when) and takes the ports it listens on as its own; another process's port is still a conflict", async () => {
    const web = `127.0.0.1:${await freePort()}`;
    const api = `127.0.0.1:${await freePort()}`;
    const listening = { BRIDGE_WEB_ADDR: web, BRIDGE_API_ADDR: api, BRIDGE_API_TOKENS: 'ci=api-token-0123456789abcdef' };
    world = await startTelegramWorld(listening);
    // A port some other program holds, named to the doctor only.
    other = createServer();
    await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
    const taken = (other.address() as AddressInfo).port;
    const run = startDoctorProcess({ ...world.env, ...listening, BRIDGE_METRICS_ADDR: `127.0.0.1:${taken}` });
    await run.exited;
    const lines = run.stdout().trim().split('\n');
    const pid = world.bridge.pid;
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^✓ running bridge: a bridge is running on this data directory \\(pid ${pid}, since \\d{4}-\\d\\d-\\d\\dT.*\\): the ports it listens on are its own$`,
        ),
      ),
    );
    expect(lines.find((line) => /^. web server:/.test(line))).toMatch(new RegExp(`^✓ web server: ${web} is the running bridge's \\(pid ${pid}\\), reached at`));
    expect(lines).toContain(`✓ SubagentService: ${api} is the running bridge's (pid ${pid})`);
    expect(lines).toContain(
      `✗ metrics listener: cannot listen on 127.0.0.1:${taken}: the port is in use, and not by the running bridge (pid ${pid}). Set BRIDGE_METRICS_ADDR to a free host:port of this machine.`,
    );
  });
});
