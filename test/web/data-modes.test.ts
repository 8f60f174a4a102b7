import { createHmac } from 'node:crypto';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebWorld, type WebWorld } from '../support/web-world.ts';
import { ownerIn } from '../support/telegram-world.ts';

// Everything the bridge keeps is its own user's alone: after a session of use (chats, a run,
// a schedule, a webhook, the dashboard and the web chat), and again after a restart on files an
// older version left readable by everyone.
const SECRET = 'modes-secret-0123456789abcdef';
const CHAT = -7700;
let web: WebWorld;

beforeAll(async () => {
  web = await startWebWorld(
    { BRIDGE_PERMISSION_MODE: 'bypass' },
    { dataFiles: { 'hooks.json': JSON.stringify({ hooks: { ci: { chat: String(CHAT), prompt: 'say:hooked', signature: 'github', secret: SECRET } } }) } },
  );
}, 60_000);
afterAll(() => web?.stop());

/** Every file and directory under the data directory but the agents' checkouts, with its mode. */
async function modes(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory() && entry.name === 'worktrees') continue;
      const mode = ((await lstat(path)).mode & 0o777).toString(8);
      found.push(`${relative(dir, path)}${entry.isDirectory() ? '/' : ''} ${mode}`);
      if (entry.isDirectory()) await walk(path);
    }
  };
  await walk(dir);
  return found.sort();
}
/** The same list as it must be: directories 0700, files 0600. */
const privately = (listed: string[]) => listed.map((line) => `${line.split(' ')[0]} ${line.split(' ')[0]!.endsWith('/') ? 700 : 600}`);

describe('the data directory', () => {
  it('holds only owner-only files after a session of use, and makes an older version’s readable ones owner-only at start', async () => {
    const { world, base } = web;
    const chat = ownerIn(() => world, CHAT);
    chat.say('hello');
    await chat.waitText(/^echo: hello/);
    chat.say('/spawn --label Modes "say:spawned"');
    await chat.waitText(/^✅ #1 Modes/);
    chat.say('/every 1h say:scheduled');
    await chat.waitText(/#1/);
    const body = JSON.stringify({ action: 'opened' });
    const delivered = await fetch(`${base}/hooks/ci`, {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-GitHub-Delivery': 'modes-1',
        'X-Hub-Signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
      },
    });
    expect(delivered.status).toBe(202);
    await chat.waitText(/^✅ #2 Webhook ci/);
    const page = await web.loggedIn();
    await page.goto(`${base}/chat`);
    await page.fill('textarea', 'say:from-the-web');
    await page.press('textarea', 'Enter');
    await page.waitForSelector('.messages li.bridge:has-text("from-the-web")', { timeout: 20_000 });
    await page.context().close();

    const used = await modes(world.dataDir);
    for (const file of [
      'chats.json',
      'telegram-updates.json',
      'web-sessions.json',
      'web/chats.json',
      'subagents.json',
      'schedules.json',
      'audit.jsonl',
      'hook-deliveries.json',
      'hooks.json',
    ])
      expect(used.map((line) => line.split(' ')[0])).toContain(file);
    expect(used).toEqual(privately(used));

    // As an older version left them: everything readable by everyone.
    world.bridge.kill('SIGTERM');
    await world.bridge.exited;
    // What is there once it stopped: a file it was writing as it ran (a .tmp renamed into place) is gone.
    for (const line of await modes(world.dataDir)) {
      const [path] = line.split(' ');
      await chmod(join(world.dataDir, path!), path!.endsWith('/') ? 0o755 : 0o644);
    }
    await world.restart();
    expect(await modes(world.dataDir)).toEqual(privately(await modes(world.dataDir)));
    chat.say('after the restart');
    await chat.waitText(/^echo: after the restart/);
    const after = await modes(world.dataDir);
    expect(after).toEqual(privately(after));
  });
});
