import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

// The service's TypeScript types are generated from proto/ (`npm run generate`) and committed:
// a .proto changed without generating again fails here, naming the file that differs.
it('the generated types match proto/', { timeout: 60_000 }, async () => {
  const scratch = join(REPO, 'test', `.generated-${process.pid}`);
  try {
    const { generate } = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')).scripts as { generate: string };
    const command = generate.replaceAll('src/surfaces/api/generated', relative(REPO, scratch));
    await execa(command, { cwd: REPO, shell: true, env: { ...process.env, PATH: `${join(REPO, 'node_modules/.bin')}:${process.env.PATH}` } });
    const committed = join(REPO, 'src/surfaces/api/generated');
    const files = async (dir: string) =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => relative(dir, join(e.parentPath, e.name)))
        .sort();
    expect(await files(scratch)).toEqual(await files(committed));
    for (const file of await files(committed)) {
      expect(await readFile(join(scratch, file), 'utf8'), file).toBe(await readFile(join(committed, file), 'utf8'));
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});
