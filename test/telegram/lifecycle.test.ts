import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alive, fakeCliWorld } from '../support/fake-cli.ts';
import { FakeTelegram } from '../support/fake-telegram/index.ts';
import { parseLogLine, startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { sessionsStored } from '../support/stored-sessions.ts';
import { statePixels } from '../support/picture-pixels.ts';
import { freePort } from '../support/free-port.ts';
import { shownText, OWNER, startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// Starting, stopping and restarting the bridge process: what survives, what is cleaned up.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -300;
const { say, waitText: answer } = ownerIn(() => world!, CHAT);

describe('bridge lifecycle', () => {
  it('resumes the same CLI session after a restart', async () => {
    world = await startTelegramWorld();
    say('one');
    await answer(/^echo: one \(turn 1\)$/);
    await world.restart('SIGTERM');
    say('two');
    await answer(/^echo: two \(turn 2\)$/);
    const calls = await world.cli.invocations();
    expect(calls[1]!.resume).toBeTruthy();
  });

  it('SIGTERM mid-turn (with no time to drain) stops the CLI cleanly, exits 0, and the turn resumes after the restart', async () => {
    world = await startTelegramWorld();
    say('hang please');
    await expect.poll(async () => (await world!.cli.invocations()).length).toBe(1);
    const [cli] = await world.cli.invocations();
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    expect(alive(cli!.pid)).toBe(false);
    const progress = world.telegram.botMessages(CHAT)[0]!;
    expect(world.telegram.message(CHAT, progress.messageId)!.text).toContain('the bridge is restarting: this goes on once it is back');
    await world.restart();
    await answer(/^↻ Resuming after the restart: “hang please”$/);
    await answer(/^echo: The bridge that runs you restarted/);
  });

  it('after a SIGKILL, the next start stops the CLI left running and resumes the turn', async () => {
    world = await startTelegramWorld();
    say('grandchild hang');
    await expect.poll(async () => (await world!.cli.invocations()).length).toBe(1);
    const [cli] = await world.cli.invocations();
    // Killed before its last line was out, the CLI would die of the broken pipe, not be left running.
    await expect.poll(() => world!.cli.hanging()).toContain(cli!.pid);
    await sessionsStored(world.dataDir, 1);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    expect(alive(cli!.pid)).toBe(true); // its own process group outlived the bridge
    await world.restart();
    await answer(/^↻ Resuming after the restart: “grandchild hang”$/);
    await expect.poll(() => alive(cli!.pid)).toBe(false);
    expect(world.bridge.log()).toMatch(/^warn: stopped 1 CLI process group\(s\) left running by a previous bridge/m);
  });

  it('makes a data directory that is not there yet, owner-only, and keeps what it takes from Telegram in it', async () => {
    const parent = await tempDir('bridge-parent-');
    const dataDir = join(parent.path, 'not', 'yet');
    try {
      world = await startTelegramWorld({ BRIDGE_DATA_DIR: dataDir });
      say('hello');
      await answer(/^echo: hello/);
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(dataDir, 'telegram-updates.json'))).isFile()).toBe(true);
    } finally {
      await world?.stop();
      world = undefined;
      await parent.remove();
    }
  });

  it('warns loudly and serves no one without an allowlist', async () => {
    world = await startTelegramWorld({ BRIDGE_ALLOWED_USERS: '', BRIDGE_LOG_FORMAT: 'pretty' });
    expect(world.bridge.stderr()).toMatch(/^\[[\d-]+ [\d:.]+\] WARN: BRIDGE_ALLOWED_USERS is empty: the bot will refuse EVERYONE/m);
    say('hello');
    await answer(/not allowed.*111/);
    expect(await world.cli.invocations()).toEqual([]);
  });

  it('logs a line per turn and per run, each with its chat and run, and never the bot token', async () => {
    world = await startTelegramWorld();
    say('hello');
    await answer(/^echo: hello/);
    say('/spawn --label Logged "say:logged"');
    await answer(/^✅ #1 Logged/);
    const entries = world.bridge.logEntries();
    const chat = `telegram:${CHAT}`;
    expect(entries.find((e) => e.msg === 'turn started')).toMatchObject({ level: 'info', chat, cli: 'claude' });
    expect(entries.find((e) => e.msg === 'turn completed')).toMatchObject({ level: 'info', chat, ms: expect.any(Number) });
    const started = entries.find((e) => e.msg === 'run #1 started');
    expect(started).toMatchObject({ level: 'info', chat, run: expect.any(String) });
    expect(entries.find((e) => e.msg === 'run #1 completed')).toMatchObject({ level: 'info', chat, run: started!.run });
    expect(world.bridge.stderr()).not.toContain(world.env.TELEGRAM_BOT_TOKEN!);
  });
});

describe('start-up errors', () => {
  async function startWith(env: Record<string, string>) {
    const data = await tempDir('bridge-data-');
    const bridge = startBridgeProcess({ BRIDGE_DATA_DIR: data.path, TELEGRAM_BOT_TOKEN: '123:abc-0000000000000000000000000000000', ...env });
    const exit = await bridge.exited;
    await data.remove();
    return { exit, stderr: bridge.stderr().trim() };
  }

  it('exits non-zero with one clear line naming every chat app when none is set', async () => {
    const { exit, stderr } = await startWith({ TELEGRAM_BOT_TOKEN: '' });
    expect(exit.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /no chat app is set: set TELEGRAM_BOT_TOKEN, or SLACK_BOT_TOKEN .*, or DISCORD_BOT_TOKEN, or MATTERMOST_URL with MATTERMOST_TOKEN, or TEAMS_APP_ID with TEAMS_APP_PASSWORD and TEAMS_TENANT_ID, or MATRIX_HOMESERVER_URL with MATRIX_ACCESS_TOKEN; or run `npm start -- --console`/,
    );
  });

  it('exits non-zero with one line naming the token and @BotFather when Telegram refuses it', async () => {
    const telegram = await FakeTelegram.start();
    try {
      const { exit, stderr } = await startWith({
        TELEGRAM_API_ROOT: telegram.apiRoot,
        TELEGRAM_BOT_TOKEN: '42:not-the-bots-token-0000000000000000',
        BRIDGE_ALLOWED_USERS: String(OWNER),
      });
      expect(exit.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
      // Housekeeping may say at info level that it removed what a killed bridge left (other
      // tests kill theirs); what the person is told is one line.
      const told = stderr.split('\n').filter((line) => parseLogLine(line)?.level !== 'info');
      expect(told).toHaveLength(1);
      expect(parseLogLine(told[0]!)).toMatchObject({
        level: 'fatal',
        msg: expect.stringMatching(/^Telegram refused TELEGRAM_BOT_TOKEN \(401 Unauthorized\): copy the bot's token from @BotFather/),
      });
    } finally {
      await telegram.close();
    }
  });

  it('exits 78 with one line naming the variable when the web server cannot listen (its port in use)', async () => {
    const telegram = await FakeTelegram.start();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const { exit, stderr } = await startWith({
        TELEGRAM_API_ROOT: telegram.apiRoot,
        TELEGRAM_BOT_TOKEN: telegram.token,
        BRIDGE_ALLOWED_USERS: String(OWNER),
        BRIDGE_WEB_ADDR: `127.0.0.1:${port}`,
      });
      expect(exit.code).toBe(78);
      const fatal = stderr
        .split('\n')
        .map(parseLogLine)
        .filter((line) => line?.level === 'fatal');
      expect(fatal).toEqual([expect.objectContaining({ msg: `BRIDGE_WEB_ADDR: cannot listen on 127.0.0.1:${port}: the port is in use` })]);
    } finally {
      taken.close();
      await telegram.close();
    }
  });

  it('exits 78 with one line naming the file when the update journal cannot be written, rather than take nothing from Telegram', async () => {
    const telegram = await FakeTelegram.start();
    const data = await tempDir('bridge-data-');
    // The journal is written through a temporary file beside it: a directory in its place fails
    // every write, as a full or read-only disk would (whatever the permissions, for root too).
    await mkdir(join(data.path, '.telegram-updates.json.tmp'));
    const bridge = startBridgeProcess({
      BRIDGE_DATA_DIR: data.path,
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_BOT_TOKEN: telegram.token,
      BRIDGE_ALLOWED_USERS: String(OWNER),
    });
    let exit: { code: number | undefined } | undefined;
    void bridge.exited.then((result) => (exit = result));
    try {
      await expect.poll(() => exit ?? /jsonl-bridge running as/.test(bridge.log()), { timeout: 30_000 }).toBeTruthy();
      expect(exit?.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
      const told = bridge
        .stderr()
        .trim()
        .split('\n')
        .filter((line) => parseLogLine(line)?.level !== 'info');
      expect(told).toEqual([
        expect.stringMatching(
          /^jsonl-bridge: \/.*\/telegram-updates\.json: cannot keep the messages taken from Telegram \(.*\bEISDIR\b.*\); the bridge must be able to write in BRIDGE_DATA_DIR$/,
        ),
      ]);
      expect(telegram.callsTo('getUpdates')).toEqual([]);
    } finally {
      if (!exit) bridge.kill('SIGKILL');
      await bridge.exited;
      await telegram.close();
      await data.remove();
    }
  });

  it('says at once that Telegram is unreachable, retries with a line per attempt, and serves once it answers', async () => {
    const port = await freePort();
    const data = await tempDir('bridge-data-');
    const cli = await fakeCliWorld();
    const token = '123456789:TEST-fake-telegram-token-0000000000';
    const bridge = startBridgeProcess({
      ...(cli.env as Record<string, string>),
      BRIDGE_DATA_DIR: data.path,
      BRIDGE_ALLOWED_USERS: String(OWNER),
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
    });
    let telegram: FakeTelegram | undefined;
    try {
      await bridge.waitForLog(/^warn: Telegram \(127\.0\.0\.1:\d+\) is unreachable: .*; trying again in 1 s \(attempt 1\)/m);
      expect(bridge.stderr()).not.toMatch(/^\s+at /m); // no stack trace
      telegram = await FakeTelegram.start({ port, token, botUsername: 'late_bot' });
      await bridge.waitForLog(/jsonl-bridge running as @late_bot/);
      expect(bridge.log()).toMatch(/^info: Telegram \(127\.0\.0\.1:\d+\) answered; starting/m);
      const chat = OWNER;
      void telegram.sendText({ chatId: chat, userId: OWNER, text: 'hello' });
      await telegram.waitFor(() => telegram!.botMessages(chat).find((m) => /^echo: hello/.test(shownText(m))), 20_000);
    } finally {
      bridge.kill('SIGTERM');
      await bridge.exited;
      await telegram?.close();
      await Promise.all([data.remove(), cli.cleanup()]);
    }
  });

  it.each([
    [{ SUBAGENTS_MAX_CONCURRENT: 'four' }, 'SUBAGENTS_MAX_CONCURRENT: expected a whole number of at least 1, got "four"'],
    [{ SUBAGENTS_TIMEOUT_SECONDS: '-5' }, 'SUBAGENTS_TIMEOUT_SECONDS: expected a whole number of at least 1, got "-5"'],
    [{ BRIDGE_DEFAULT_CLI: 'cobol' }, 'BRIDGE_DEFAULT_CLI: unknown CLI "cobol"; known: claude, codex, copilot, droid, gemini, opencode, qwen'],
    [{ BRIDGE_ALLOWED_USERS: '111,bob' }, 'BRIDGE_ALLOWED_USERS: expected comma-separated user ids (numbers, or transport:id), got "bob"'],
    [{ BRIDGE_DAILY_BUDGET_USD: 'lots' }, 'BRIDGE_DAILY_BUDGET_USD: expected an amount of US dollars above 0, like 5 or 2.50, got "lots"'],
    [{ BRIDGE_PROJECT_ROOTS: '/no/such/root' }, 'BRIDGE_PROJECT_ROOTS: /no/such/root is not an existing directory'],
    [{ BRIDGE_PERMISSION_MODE: 'yolo' }, 'BRIDGE_PERMISSION_MODE: expected one of safe, ask, bypass, got "yolo"'],
    [{ BRIDGE_DRAIN_SECONDS: '1m' }, 'BRIDGE_DRAIN_SECONDS: expected a whole number of at least 0, got "1m"'],
    [{ BRIDGE_RESUME_INTERRUPTED: 'yes' }, 'BRIDGE_RESUME_INTERRUPTED: expected on or off, got "yes"'],
    [
      { BRIDGE_TRANSCRIBE_URL: 'whisper.local' },
      'BRIDGE_TRANSCRIBE_URL: expected the http(s) base URL of an OpenAI-compatible API, like http://127.0.0.1:8000/v1, got "whisper.local"',
    ],
    [
      { BRIDGE_REDIS_URL: 'http://:secret@localhost:6379' },
      'BRIDGE_REDIS_URL: expected a redis:// or rediss:// URL, like redis://:password@127.0.0.1:6379/0, got "http://:***@localhost:6379"',
    ],
    [
      { BRIDGE_REDIS_URL: 'redis://:secret@localhost:6379' },
      'BRIDGE_QUEUE_SECRET is not set: BRIDGE_REDIS_URL needs it, the same on the bridge and every worker, at least 32 characters (openssl rand -base64 33)',
    ],
    [
      { BRIDGE_REDIS_URL: 'redis://:secret@localhost:6379', BRIDGE_QUEUE_SECRET: 'short' },
      'BRIDGE_QUEUE_SECRET: expected at least 32 characters (openssl rand -base64 33), got 5',
    ],
    [{ BRIDGE_MCP_LISTEN: '8765' }, 'BRIDGE_MCP_LISTEN: expected host:port, like 0.0.0.0:8765, got "8765"'],
    [
      { BRIDGE_MCP_URL: 'bridge:8765' },
      'BRIDGE_MCP_URL: expected the http(s) URL workers reach the bridge\'s tools at, like http://bridge.internal:8765/mcp, got "bridge:8765"',
    ],
    [{ BRIDGE_WORKER_LOCK_SECONDS: '0' }, 'BRIDGE_WORKER_LOCK_SECONDS: expected a whole number of at least 1, got "0"'],
    [{ BRIDGE_LOG_FORMAT: 'xml' }, 'BRIDGE_LOG_FORMAT: expected pretty or json, got "xml"'],
    [
      { TELEGRAM_BOT_TOKEN: 'abc' },
      'TELEGRAM_BOT_TOKEN: expected the token @BotFather gave your bot (its id, a colon, then 35 letters, digits, _ or -: 123456789:AAE…), got 3 characters that are not one',
    ],
    [{ BRIDGE_SILENCE_SECONDS: '5m' }, 'BRIDGE_SILENCE_SECONDS: expected a whole number of at least 1, got "5m"'],
    [{ BRIDGE_API_ADDR: '50051' }, 'BRIDGE_API_ADDR: expected host:port, like 127.0.0.1:50051, got "50051"'],
    [
      { BRIDGE_API_ADDR: '127.0.0.1:0', BRIDGE_API_TOKENS: 'ci=short' },
      'BRIDGE_API_TOKENS: expected name=token pairs, each token at least 16 characters, got "ci=…"',
    ],
    [
      { BRIDGE_API_ADDR: '127.0.0.1:0', BRIDGE_API_TOKENS: 'ci=0123456789abcdef', BRIDGE_API_SCOPES: 'ci=42,deploy=*' },
      'BRIDGE_API_SCOPES: "deploy" is not a client of BRIDGE_API_TOKENS (ci)',
    ],
    [
      { BRIDGE_API_ADDR: '127.0.0.1:0', BRIDGE_API_TOKENS: 'ci=0123456789abcdef', BRIDGE_API_SCOPES: 'ci=42|general' },
      'BRIDGE_API_SCOPES: expected chat ids (numbers, like -1001234567890, or transport:id) or * for "ci", got "general"',
    ],
    [
      { BRIDGE_API_ADDR: '127.0.0.1:0', BRIDGE_API_TLS_CERT: '/no/cert.pem' },
      'BRIDGE_API_TLS_CERT and BRIDGE_API_TLS_KEY: set both (PEM files) for TLS, or neither',
    ],
  ])('exits non-zero naming the variable for %j', async (env, message) => {
    const { exit, stderr } = await startWith(env);
    expect(exit.code).toBe(78); // EX_CONFIG: fix the setup, do not restart
    expect(stderr).toBe(`jsonl-bridge: ${message}`);
  });
});

describe('console mode', () => {
  it('runs the same bridge on stdin and stdout, then exits at the end of input', async () => {
    const data = await tempDir('bridge-data-');
    const work = await tempDir('bridge-work-');
    await writeFile(join(work.path, 'package.json'), '{}\n');
    const bridge = startBridgeProcess(
      // The first turn holds until the test's go-ahead, so `second` meets it running: its own turn, queued, not steered in.
      { BRIDGE_DATA_DIR: data.path, BRIDGE_WORKDIR: work.path, TELEGRAM_BOT_TOKEN: '', BRIDGE_BUSY_MODE: 'queue' },
      ['--console'],
      'hello tools:1 wait-for:go\n/status\nsecond\n/frob\n/file get package.json\n/spawn "sleep:30 long"\n/press 1\n/press 99\n',
    );
    await vi.waitFor(() => expect(bridge.stdout()).toContain('Queued (1st in line)'), { timeout: 30_000, interval: 25 });
    await writeFile(join(work.path, 'go'), '');
    const exit = await bridge.exited;
    await work.remove();
    // The terminal is the conversation's: the log is in the data directory (owner-only); only warnings and errors show.
    const logFile = join(data.path, 'bridge.log');
    const logged = await readFile(logFile, 'utf8');
    const mode = (await stat(logFile)).mode & 0o777;
    await data.remove();
    expect(exit.code).toBe(0);
    const [greeting, ...rest] = bridge.stderr().trim().split('\n');
    expect(greeting).toMatch(/^jsonl-bridge console: claude \(the default; \/cli changes it\) in .* The log is in .*bridge\.log\.$/);
    expect(rest.map((line) => parseLogLine(line)?.level)).not.toContain('info'); // warnings (the agent user's) still show
    expect(logged.split('\n').map((line) => parseLogLine(line))).toContainEqual(expect.objectContaining({ level: 'info', msg: 'turn started' }));
    expect(mode).toBe(0o600);
    const out = bridge.stdout();
    expect(out).toContain('echo: hello tools:1 wait-for:go (turn 1)');
    expect(out).toMatch(/✅ 0:0\d · 1 step · /); // the quick turn's stats, under its answer
    expect(out).toContain('Queued (1st in line)');
    expect(out).toContain('echo: second (turn 2)');
    expect(out).toContain('Unknown command /frob. Try /help.');
    expect(out).toMatch(/📎 \/.*\/package\.json\n/); // a file sent is shown by its path
    expect(out).toMatch(/\[1\] ⏹ Stop #1 {3}\(\/press <n>\)\n/); // buttons are numbered, pressed with /press
    expect(out).toMatch(/❌ #1 Subagent #1 · [^\n]*\n+Stopped: stopped by owner/); // the press stopped the run
    expect(out).toContain('No button [99].');
    expect(out).toMatch(/Status\nCLI: claude/);
  });

  it('waits for subagents and orchestrations at the end of input, and prints their announcements', async () => {
    const data = await tempDir('bridge-data-');
    const script = '/spawn --label Side "sleep:0.5 say:side-result"\n/orchestrate one: say:first\\\ntwo <- one: say:second\n';
    const bridge = startBridgeProcess({ BRIDGE_DATA_DIR: data.path, TELEGRAM_BOT_TOKEN: '' }, ['--console'], script);
    const exit = await bridge.exited;
    // The orchestration's picture is a PNG file under the data directory, its path printed once, and it ends
    // showing the last state: the console waits for it too.
    const picturePath = /^🖼 (.*orchestration-1\.png)$/m.exec(bridge.stdout())?.[1];
    const picture = picturePath ? await readFile(picturePath) : undefined;
    await data.remove();
    expect(exit.code).toBe(0);
    expect(bridge.stdout()).toMatch(/✅ #1 Side · 0:0\d\n\nside-result/);
    expect(bridge.stdout()).toMatch(/✅ Orchestration #1 \(orchestration #1\)/);
    expect(picturePath?.startsWith(join(data.path, 'console'))).toBe(true);
    expect(bridge.stdout().match(/🖼/g)).toHaveLength(1);
    const shown = statePixels(picture!);
    expect(shown.done).toBeGreaterThan(2 * 2000);
    expect([shown.running, shown.waiting]).toEqual([0, 0]);
  });
});
