import { afterEach, describe, expect, it } from 'vitest';
import { fakeCliWorld } from '../support/fake-cli.ts';
import { startBridgeProcess, tempDir, type BridgeProcess } from '../support/bridge-process.ts';
import { REFUSING_PORT } from '../support/free-port.ts';

// What the start says, whatever the chat apps do: a wrong setting stops it, what a CLI lacks is said.
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function dataDir(): Promise<string> {
  const data = await tempDir('start-lines-');
  cleanups.push(() => data.remove());
  return data.path;
}

function stopped(bridge: BridgeProcess): BridgeProcess {
  cleanups.push(async () => {
    bridge.kill('SIGKILL');
    await bridge.exited;
  });
  return bridge;
}

describe('the start', () => {
  it('stops in one line on a BRIDGE_TRANSPORTS naming no transport, with --console too', async () => {
    const bridge = stopped(startBridgeProcess({ BRIDGE_DATA_DIR: await dataDir(), BRIDGE_TRANSPORTS: 'bogus' }, ['--console'], ''));
    expect((await bridge.exited).code).toBe(78);
    expect(bridge.stderr()).toBe(
      'jsonl-bridge: BRIDGE_TRANSPORTS: "bogus" is not a transport; choose among telegram, slack, discord, mattermost, teams, matrix, web (the terminal is --console)\n',
    );
    expect(bridge.stdout()).toBe('');
  });

  it('says what a CLI lacks while its chat app is out of reach, not once it is reached', async () => {
    const cli = await fakeCliWorld();
    cleanups.push(() => cli.cleanup());
    const env = Object.fromEntries(Object.entries(cli.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const bridge = stopped(
      startBridgeProcess({
        ...env,
        FAKE_CLI_LOGGED_OUT: '1',
        ANTHROPIC_API_KEY: '',
        TELEGRAM_BOT_TOKEN: '123456:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        TELEGRAM_API_ROOT: `http://127.0.0.1:${REFUSING_PORT}`,
        BRIDGE_ALLOWED_USERS: '111',
        BRIDGE_DATA_DIR: await dataDir(),
      }),
    );
    await bridge.waitForLog(/Telegram \(127\.0\.0\.1:\d+\) is unreachable/);
    await bridge.waitForLog(/warn: claude has no credentials: .*Set ANTHROPIC_API_KEY/, 60_000);
    expect(bridge.log()).not.toMatch(/serving /);
  });
});
