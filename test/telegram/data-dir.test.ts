import { lstat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside } from '../../src/engine/projects/directories.ts';
import { tempDir } from '../support/bridge-process.ts';
import { ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The data directory inside the project, where the default ./data lies: nothing of it goes
// out through /file get, and no secret of the bridge is kept anywhere under the project.
let world: TelegramWorld;
let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempDir('data-dir-project-');
  world = await startTelegramWorld({ BRIDGE_WORKDIR: project.path, BRIDGE_DATA_DIR: join(project.path, 'data') });
  await writeFile(join(project.path, 'data', 'probe.txt'), 'bridge state\n');
  await writeFile(join(project.path, 'notes.md'), '# notes\n');
});
afterAll(async () => {
  await world.stop();
  await project.remove();
});

const CHAT = -2420;
const { say, waitText: answer } = ownerIn(() => world, CHAT);

describe('the data directory inside the project', () => {
  it('/file get refuses a file in it, and a zip of the project leaves it out', async () => {
    say('/file get data/probe.txt');
    await answer(/^⚠️ data\/probe\.txt is in the bridge's data directory, which holds its secrets and is never sent\./);
    say('/file get data');
    await answer(/^⚠️ data is in the bridge's data directory/);
    say('/file get .');
    const zip = await world.telegram.waitFor(() => world.telegram.botMessages(CHAT).find((m) => m.document?.fileName?.endsWith('.zip')));
    const listing = zip.document!.bytes.toString('latin1');
    expect(listing).toContain('notes.md');
    expect(listing).not.toContain('probe.txt');
    expect(listing).not.toContain('chats.json');
  });

  it("keeps a session's MCP config (its secret) outside the project, owner-only", async () => {
    say('hello');
    await answer(/^echo: hello/);
    const [call] = await world.cli.invocations();
    const config = call!.argv[call!.argv.indexOf('--mcp-config') + 1]!;
    expect(isInside(config, project.path)).toBe(false);
    expect((await lstat(config)).mode & 0o777).toBe(0o600);
  });
});
