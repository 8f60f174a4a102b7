import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What a newcomer reads first, and pastes: it is true of the bridge, and runs where they are.
const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

/** The commands of a page's sh blocks: each simple command (split at &&, ||, ;, |) without its comment. */
function commands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean)
    .flatMap((line) => line.split(/&&|\|\||;|\|/).map((part) => part.trim()))
    .filter(Boolean);
}

/** The program a simple command runs: its first word past the variables it sets. */
const program = (command: string) => command.split(/\s+/).find((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word))!;

describe('the first words', () => {
  it('package.json says the bridge serves many chat apps, not that it is a Telegram bot', () => {
    const { description } = JSON.parse(read('package.json')) as { description: string };
    expect(description).not.toMatch(/Telegram bot/i);
    for (const app of ['Telegram', 'Slack', 'Discord']) expect(description).toContain(app);
    expect((JSON.parse(read('manifest.json')) as { description: string }).description).not.toMatch(/Telegram chats/);
  });

  it("the agent user's page runs as root, where sudo may be absent, and says to prefix sudo otherwise", () => {
    const page = read('docs/agent-user.md');
    expect(page).toMatch(/prefix each command with `sudo`/);
    const programs = commands(page).map(program);
    expect(programs).toContain('useradd');
    for (const name of programs) {
      expect(name).not.toBe('sudo');
      // Each is a program this machine's root has, the CLIs and npm aside (the README installs them).
      if (['claude', 'npm'].includes(name)) continue;
      expect(() => execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }), name).not.toThrow();
    }
  });
});
