import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../../src/transport-kinds.ts';
import { KNOWN_TRANSPORTS } from '../../src/transports/known.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Where a transport may be named: its own folder, and the two lists of transports. */
const MAY_NAME = ['transports/known.ts', 'transport-kinds.ts'];

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

describe('the transports', () => {
  it.each(['telegram', 'discord'])('are named only in their own folders: nothing else in src/ knows %s, in code or in comments', async (name) => {
    const naming: string[] = [];
    for (const file of await sources(SRC)) {
      const path = relative(SRC, file);
      if (path.startsWith(`${name}/`) || MAY_NAME.includes(path)) continue;
      (await readFile(file, 'utf8')).split('\n').forEach((line, i) => {
        if (new RegExp(name, 'i').test(line)) naming.push(`src/${path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(naming).toEqual([]);
  });

  it('are each one object in their folder, listed once, with the ids and environment the core knows them by', async () => {
    expect(TRANSPORTS.map((t) => t.id).sort()).toEqual(KNOWN_TRANSPORTS.map((t) => t.id).sort());
    for (const transport of TRANSPORTS) {
      const folder = join(SRC, transport.id);
      expect((await readdir(folder)).includes('transport.ts'), `src/${transport.id}/transport.ts`).toBe(true);
    }
  });
});
