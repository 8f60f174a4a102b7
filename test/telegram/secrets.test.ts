import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside } from '../../src/engine/projects/directories.ts';
import { startTelegramWorld, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// What the bridge keeps to itself: its token and settings never reach a CLI, and the MCP
// secrets never stand on a command line, and die with their run.
let world: TelegramWorld;
beforeAll(async () => (world = await startTelegramWorld({ BRIDGE_TRANSCRIBE_KEY: 'transcribe-secret', ANTHROPIC_API_KEY: 'for-the-cli' })));
afterAll(() => world.stop());

const CHAT = -1300;
const { say, waitText } = ownerIn(() => world, CHAT);

describe("the bridge's secrets", () => {
  it("never reach a CLI: not the bot token, not the bridge's settings; the CLI's own keys pass through", async () => {
    say('say:hello');
    await waitText(/^hello/);
    const [call] = await world.cli.invocations();
    expect(call!.envNames).toContain('ANTHROPIC_API_KEY');
    expect(call!.envNames).toContain('JSONL_BRIDGE_MCP_TOKEN');
    expect(call!.envNames.filter((name) => /^(TELEGRAM_|BRIDGE_|SUBAGENTS_)/.test(name))).toEqual([]);
  });

  it('keeps each MCP secret off the command line, in a file only the owner can read outside the data directory and the project, revoked when its run ends', async () => {
    const [first] = await world.cli.invocations();
    const mcpDir = dirname(first!.argv[first!.argv.indexOf('--mcp-config') + 1]!);
    expect(mcpDir).toMatch(/\/jsonl-bridge-mcp-\d+-\w+$/);
    expect(isInside(mcpDir, world.dataDir) || isInside(mcpDir, world.workdir)).toBe(false);
    const mainConfig = JSON.parse(await readFile(join(mcpDir, `main-telegram_${CHAT}.json`), 'utf8'));
    const token = /^Bearer (.+)$/.exec(mainConfig.mcpServers.bridge.headers.Authorization)![1]!;
    expect(mainConfig.mcpServers.bridge.url).not.toContain(token);
    expect((await stat(join(mcpDir, `main-telegram_${CHAT}.json`))).mode & 0o777).toBe(0o600);
    for (const call of await world.cli.invocations()) expect(call.argv.join(' ')).not.toContain(token);

    // a run that asks the chat gets its own secret for the permission tool; it goes with the run
    say('/spawn --ask "say:asked"');
    await waitText(/^✅ #1/);
    const run = (await world.cli.invocations()).find((call) => call.prompt === 'say:asked')!;
    const runConfig = run.argv[run.argv.indexOf('--mcp-config') + 1]!;
    expect(dirname(runConfig)).toBe(mcpDir);
    expect(runConfig).toMatch(/\/run-[\w-]+\.json$/);
    expect((await readdir(mcpDir)).filter((file) => file.startsWith('run-'))).toEqual([]);
  });
});
