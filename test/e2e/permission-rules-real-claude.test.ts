import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { ownerIn } from '../support/telegram-world.ts';

// Claude Code's permission rules, as written for Claude Code, through /spawn and an agent
// file to the real claude binary: what a rule allows runs, the rest is refused by the CLI.
let real: RealCliWorld;
const CHAT = -1400;

/** The run executes the command its task names, then reports what the tool said. */
function script(request: ModelRequest): Reply {
  if (request.toolResults.length) return { text: `tool said: ${request.toolResults[0]!.content}` };
  const command = /^run: (.+)$/m.exec(request.lastUserText)?.[1];
  return command ? { toolCalls: [{ name: 'Bash', input: { command, description: 'Run it' } }] } : { text: 'nothing to run' };
}

beforeAll(async () => {
  real = await startRealCliWorld('claude', script);
  const agents = join(real.cliEnv.workdir, '.claude', 'agents');
  await mkdir(agents, { recursive: true });
  await writeFile(join(agents, 'echoer.md'), '---\nname: Echoer\ndescription: Echoes things\ntools: Bash(echo:*), Read\n---\nYou echo.\n');
  // The repository's own agents count once the owner trusts it.
  say('/trust on');
  await waitText(/^🛡 Trusted/);
});
afterAll(() => real.stop());

const { say, waitText } = ownerIn(() => real.world, CHAT);
const announcement = (n: number) =>
  real.world.telegram.waitFor(() => real.world.telegram.botMessages(CHAT).find((m) => new RegExp(`^[✅❌] #${n} `).test(m.text ?? '')), 40_000);

describe('Claude Code permission rules', () => {
  it('--allow "Bash(echo:*)" lets echo run and refuses any other command', async () => {
    say('/spawn --allow "Bash(echo:*)" "run: echo rules-work"');
    expect((await announcement(1)).text).toContain('tool said: rules-work');
    say('/spawn --allow "Bash(echo:*)" "run: touch forbidden.txt"');
    expect((await announcement(2)).text).toMatch(/tool said: Permission to use Bash has been denied/);
    expect(existsSync(join(real.cliEnv.workdir, 'forbidden.txt'))).toBe(false);
  });

  it('an agent file with `tools: Bash(echo:*), Read` is listed, spawned, and held to its rules', async () => {
    say('/agents');
    await real.world.telegram.waitFor(
      () => real.world.telegram.botMessages(CHAT).find((m) => /echoer Echoer \(tools: Bash\(echo:\*\), Read\)/.test(m.text ?? '')),
      20_000,
    );
    say('/spawn --agent echoer "run: touch also-forbidden.txt"');
    expect((await announcement(3)).text).toMatch(/tool said: Permission to use Bash has been denied/);
    expect(existsSync(join(real.cliEnv.workdir, 'also-forbidden.txt'))).toBe(false);
  });
});
