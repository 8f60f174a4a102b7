import { chmod, chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { startDoctorProcess, tempDir } from '../support/bridge-process.ts';
import { FAKE_AGENT } from '../support/fake-cli.ts';
import { startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A folder a root process made where the agent user's CLI keeps its sessions (claude's
// `projects`, here under its CLAUDE_CONFIG_DIR): the CLI saves none there, and every turn
// would start afresh. The doctor and the start each say so in one line.
let world: TelegramWorld | undefined;
let scratch: { path: string; remove(): Promise<void> } | undefined;
afterEach(async () => {
  await world?.stop();
  await scratch?.remove();
  world = scratch = undefined;
});

const skip = cannotSwitchUser();

/** A claude configuration folder of the agent user's, whose `projects` root made and kept. */
async function rootOwnedProjects(): Promise<{ config: string; projects: string }> {
  const ids = agentIds()!;
  scratch = await tempDir('sessions-check-');
  await chmod(scratch.path, 0o755);
  const config = join(scratch.path, 'claude');
  const projects = join(config, 'projects');
  await mkdir(projects, { recursive: true, mode: 0o755 });
  await chown(config, ids.uid, ids.gid);
  return { config, projects };
}

describe.skipIf(skip)(`where the agent user's CLI keeps its sessions (${skip ?? AGENT_USER})`, () => {
  it('the doctor marks a folder there the agent user cannot write, with how to give it back, and passes once it can', async () => {
    const { uid, gid } = agentIds()!;
    const { config, projects } = await rootOwnedProjects();
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: scratch!.path,
      BRIDGE_DATA_DIR: join(scratch!.path, 'data'),
      BRIDGE_AGENT_USER: AGENT_USER,
      BRIDGE_CLAUDE_COMMAND: FAKE_AGENT,
      CLAUDE_CONFIG_DIR: config,
    };
    const doctor = async () => {
      const run = startDoctorProcess(env, ['--console']);
      const { code } = await run.exited;
      return { code, lines: run.stdout().trim().split('\n') };
    };
    const refused = await doctor();
    expect(refused.lines).toContain(
      `✗ claude sessions: ${AGENT_USER} (uid ${uid}) cannot write ${projects} (owner uid 0, mode 755), where claude keeps its sessions, so no later turn or /resume can continue one. Give it to that user: chown -R ${AGENT_USER}: ${projects}`,
    );
    expect(refused.code).toBe(1);

    await chown(projects, uid, gid);
    const fixed = await doctor();
    expect(fixed.lines.some((line) => line.includes('claude sessions'))).toBe(false);
  });

  it('the start says it in one line', async () => {
    const { uid } = agentIds()!;
    const { config, projects } = await rootOwnedProjects();
    world = await startTelegramWorld({ BRIDGE_AGENT_USER: AGENT_USER, CLAUDE_CONFIG_DIR: config });
    await world.bridge.waitForLog(/claude saves no session/, 45_000);
    expect(world.bridge.log()).toContain(
      `warn: claude saves no session: ${AGENT_USER} (uid ${uid}) cannot write ${projects} (owner uid 0, mode 755), where claude keeps its sessions, so no later turn or /resume can continue one. Give it to that user: chown -R ${AGENT_USER}: ${projects}`,
    );
  });
});
