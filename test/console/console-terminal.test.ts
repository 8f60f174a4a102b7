import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_AGENT, fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { startBridgeProcess, tempDir } from '../support/bridge-process.ts';
import { freePort } from '../support/free-port.ts';
import { startConsoleInTerminal, type TerminalProcess } from '../support/terminal.ts';

// The console as a newcomer meets it: in a terminal of its own (a pseudo-terminal), or fed by a pipe.
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function world(): Promise<{ cli: FakeCliWorld; env: Record<string, string> }> {
  const [cli, data, work] = await Promise.all([fakeCliWorld(), tempDir('console-data-'), tempDir('console-work-')]);
  cleanups.push(
    () => cli.cleanup(),
    () => data.remove(),
    () => work.remove(),
  );
  const env = Object.fromEntries(Object.entries(cli.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { cli, env: { ...env, BRIDGE_DATA_DIR: data.path, BRIDGE_WORKDIR: work.path, TELEGRAM_BOT_TOKEN: '' } };
}

function watched(terminal: TerminalProcess): TerminalProcess {
  cleanups.push(async () => {
    terminal.end();
    const gone = await Promise.race([terminal.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 10_000))]);
    if (!gone) terminal.kill();
  });
  return terminal;
}

describe('the console in a terminal', () => {
  it('takes a pasted 10,000-character message of three lines whole, as one message', async () => {
    const { cli, env } = await world();
    const terminal = watched(startConsoleInTerminal(env));
    await terminal.waitFor(/Type a message, or \/help/);
    const lines = ['first:' + '0'.repeat(3327), 'second:' + '1'.repeat(3326), 'third:' + '2'.repeat(3326)];
    const message = lines.join('\n');
    expect(message.length).toBe(10_000);
    // As a terminal sends a paste in bracketed paste mode (newlines as carriage returns), then the Enter that sends it.
    terminal.type(`\x1b[200~${lines.join('\r')}\x1b[201~\r`);
    await terminal.waitFor(/echo: first:0{3327}/);
    terminal.end();
    expect(await terminal.exited).toBe(0);
    const prompts = (await cli.invocations()).map((turn) => turn.prompt);
    expect(prompts).toEqual([message]);
    expect(terminal.screen()).toContain('\x1b[?2004h'); // bracketed paste on
    expect(terminal.screen()).toContain('\x1b[?2004l'); // and off at the end
  });

  it('says at start, in the terminal, that claude has no credentials and how to give them; a turn says it once, without running claude', async () => {
    const { cli, env } = await world();
    const terminal = watched(startConsoleInTerminal({ ...env, FAKE_CLI_LOGGED_OUT: '1', ANTHROPIC_API_KEY: '', CODEX_API_KEY: 'sk-codex' }));
    await terminal.waitFor(/claude has no credentials: .*\n/);
    expect(terminal.text()).toContain(
      `claude has no credentials: \`${FAKE_AGENT} auth status\` says "loggedIn": false. Set ANTHROPIC_API_KEY where the bridge starts (export ANTHROPIC_API_KEY=…), or run \`claude\` once in a terminal and log in there.`,
    );
    terminal.type('hello\r');
    await terminal.waitFor(/❌/);
    terminal.end();
    expect(await terminal.exited).toBe(0);
    const screen = terminal.text();
    // The answer is the one line, with its fix, the start said: claude is not run for nothing.
    expect(screen.match(/❌ claude has no credentials: .* says "loggedIn": false\. Set ANTHROPIC_API_KEY/g)).toHaveLength(1);
    expect(await cli.invocations()).toEqual([]);
    expect(screen).not.toMatch(/Not logged in|\/login/);
    expect(screen).not.toMatch(/WARN.*turn failed/); // the conversation says it; the log file keeps it
  });

  it("greets with the chat's own CLI and folder after a restart, the default said as such before", async () => {
    const { env } = await world();
    const first = watched(startConsoleInTerminal(env));
    await first.waitFor(/Type a message, or \/help/);
    expect(first.text()).toContain(`jsonl-bridge console: claude (the default; /cli changes it) in ${env.BRIDGE_WORKDIR}.`);
    first.type('/cli codex\r');
    await first.waitFor(/Switched to codex/);
    first.end();
    expect(await first.exited).toBe(0);
    const second = watched(startConsoleInTerminal(env));
    await second.waitFor(/Type a message, or \/help/);
    expect(second.text()).toContain(`jsonl-bridge console: codex in ${env.BRIDGE_WORKDIR}.`);
  });

  it('says where the web pages are when BRIDGE_WEB_ADDR is set', async () => {
    const { env } = await world();
    const port = await freePort();
    const terminal = watched(startConsoleInTerminal({ ...env, BRIDGE_WEB_ADDR: `127.0.0.1:${port}` }));
    await terminal.waitFor(/Type a message, or \/help/);
    await terminal.waitFor(new RegExp(`The dashboard and the web chat are at http://127\\.0\\.0\\.1:${port}; /dashboard gives a login link\\.`));
  });
});

describe('the console fed by a pipe', () => {
  it("/help is short, shows examples and the console's /press, and nothing only chat apps have; /help <command> its options", async () => {
    const { env } = await world();
    const bridge = startBridgeProcess(env, ['--console'], '/help\n/help spawn\n');
    expect((await bridge.exited).code).toBe(0);
    const [help, spawn] = bridge.stdout().split(/\n(?=\/spawn \[--label)/);
    expect(help).toMatch(/\nExamples\nWhy does npm test fail\? Fix it\.\n {4}a task for the agent, in plain words\n/);
    expect(help).toContain('/spawn --label Docs "write the install section of the README"');
    expect(help).toContain('Buttons: /press <n> presses the one printed as [n].');
    expect(help).toMatch(/\nIn the background: \/spawn \/subagents /);
    expect(help).not.toMatch(/\/start|Mini App|\/allow|\/deny/);
    expect(help!.trim().split('\n').length).toBeLessThanOrEqual(25);
    expect(spawn).toMatch(/^\/spawn \[--label L\].*"task"\n {4}Start a background subagent\n/);
  });

  it('prints the dashboard link once', async () => {
    const { env } = await world();
    const bridge = startBridgeProcess({ ...env, BRIDGE_WEB_ADDR: `127.0.0.1:${await freePort()}` }, ['--console'], '/dashboard\n');
    expect((await bridge.exited).code).toBe(0);
    expect(bridge.stdout()).toMatch(
      /📊 Log in to the dashboard in a browser\. The link works once, within 10 minutes:\nhttp:\/\/127\.0\.0\.1:\d+\/login#\S+\n/,
    );
    expect(bridge.stdout().match(/\/login#/g)).toHaveLength(1);
  });

  it('ends a turn whose CLI shows no progress for BRIDGE_SILENCE_SECONDS, saying why', async () => {
    const { env } = await world();
    const bridge = startBridgeProcess({ ...env, BRIDGE_SILENCE_SECONDS: '3' }, ['--console'], 'reconnecting\n');
    expect((await bridge.exited).code).toBe(0);
    expect(bridge.stdout()).toMatch(
      /⌛ claude showed no progress for 3 s \(its last words: .*Reconnecting… \d+\/5 waiting for network.*\), so the turn was ended\. Check its network and its credentials \(npm run doctor\); BRIDGE_SILENCE_SECONDS sets how long to wait\./,
    );
  });

  it('takes a line a message, however long, and refuses one over 100,000 characters with its length', async () => {
    const { cli, env } = await world();
    const long = 'x'.repeat(20_000);
    const tooLong = 'y'.repeat(100_001);
    const bridge = startBridgeProcess(env, ['--console'], `${long}\n${tooLong}\nafter\n`);
    expect((await bridge.exited).code).toBe(0);
    expect((await cli.invocations()).map((turn) => turn.prompt.length)).toEqual([20_000, 'after'.length]);
    expect(bridge.stdout()).toContain(
      'Not sent: this message is 100,001 characters, and the console takes at most 100,000 in one. Save it to a file and ask the agent to read the file.',
    );
  });
});
