import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLog } from '../support/silent-log.ts';
import { removeLeftScratch, scratchFolder } from '../../src/engine/process/scratch.ts';

// Scratch folders in the temp directory: a process killed outright leaves its own, and the
// next start removes them, with real processes for the pids.
let parent: string;
afterEach(() => rmSync(parent, { recursive: true, force: true }));

describe('scratch folders', () => {
  it('are owner-only and named with the pid of the process that made them', () => {
    parent = mkdtempSync(join(tmpdir(), 'scratch-'));
    const folder = scratchFolder('turn', parent);
    expect(folder).toMatch(new RegExp(`/jsonl-bridge-turn-${process.pid}-\\w+$`));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('left by a process that is gone are removed; those of live processes, and anything else, stay', async () => {
    parent = mkdtempSync(join(tmpdir(), 'scratch-'));
    // A process that made a folder and wrote a prompt there, then was killed before it could remove it.
    const script = [
      "import { writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      `import { scratchFolder } from ${JSON.stringify(join(process.cwd(), 'src/engine/process/scratch.ts'))};`,
      `writeFileSync(join(scratchFolder('turn', ${JSON.stringify(parent)}), 'prompt.md'), 'secret plan');`,
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const killed = execa('node', ['--import', 'tsx', '--input-type=module', '-e', script], { reject: false });
    const live = execa('sleep', ['30'], { reject: false });
    try {
      await expect.poll(() => readdirSync(parent).flatMap((folder) => readdirSync(join(parent, folder))), { timeout: 20_000 }).toEqual(['prompt.md']);
      killed.kill('SIGKILL');
      await killed;
      mkdirSync(join(parent, `jsonl-bridge-pipes-${live.pid}-abc`));
      mkdirSync(join(parent, `jsonl-bridge-turn-${process.pid}-abc`));
      mkdirSync(join(parent, 'jsonl-bridge-notes'));
      writeFileSync(join(parent, 'someone-elses-file'), '');

      expect(await removeLeftScratch(silentLog(), parent)).toBe(1);
      expect(readdirSync(parent).sort()).toEqual(
        [`jsonl-bridge-pipes-${live.pid}-abc`, `jsonl-bridge-turn-${process.pid}-abc`, 'jsonl-bridge-notes', 'someone-elses-file'].sort(),
      );
    } finally {
      live.kill();
      killed.kill('SIGKILL');
    }
  });
});
