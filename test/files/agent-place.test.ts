import { chmod, chown, lstat, mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entriesInPlace, filesInPlace, openInPlace, readInPlace, writeInPlace, type AgentPlace } from '../../src/engine/files/agent-place.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { tempDir } from '../support/bridge-process.ts';

// A place an agent writes (its home, its directory), read and written by the bridge: never
// through a link, never outside it, and, when it is the agent user's, never what that user
// could not read itself (the owner's checks are real processes of that uid).
let dir: { path: string; remove(): Promise<void> };
/** The place (`home`), and beside it what must stay out of reach (`elsewhere`). */
let home: string;
let elsewhere: string;
beforeEach(async () => {
  dir = await tempDir('agent-place-');
  await chmod(dir.path, 0o755);
  home = join(dir.path, 'home');
  elsewhere = join(dir.path, 'elsewhere');
  await mkdir(join(home, 'sessions'), { recursive: true });
  await mkdir(elsewhere);
  await writeFile(join(elsewhere, 'secret.jsonl'), 'the secret\n');
  await writeFile(join(home, 'sessions', 'own.jsonl'), 'its own\n');
});
afterEach(() => dir.remove());

describe('a place an agent writes, as the bridge reads it', () => {
  it('lists and reads its files, and nothing a link in it leads to: neither a linked file nor a linked folder', async () => {
    const place: AgentPlace = { root: home };
    await symlink(join(elsewhere, 'secret.jsonl'), join(home, 'sessions', 'linked.jsonl'));
    await symlink(elsewhere, join(home, 'linked-folder'));
    await symlink(join(home, 'sessions', 'own.jsonl'), join(home, 'sessions', 'inside.jsonl')); // a link, even to a file inside, is not followed

    expect((await entriesInPlace(place, join(home, 'sessions'))).map((entry) => entry.name)).toEqual(['own.jsonl']);
    expect(await entriesInPlace(place, join(home, 'linked-folder'))).toEqual([]);
    expect(await filesInPlace(place, home)).toEqual([join(home, 'sessions', 'own.jsonl')]);
    expect(await entriesInPlace(place, elsewhere)).toEqual([]); // outside the place altogether

    const paths = ['own.jsonl', 'linked.jsonl', 'inside.jsonl'].map((name) => join(home, 'sessions', name));
    const read = await readInPlace(place, [...paths, join(home, 'linked-folder', 'secret.jsonl'), join(elsewhere, 'secret.jsonl')], 1024);
    expect(read.map((file) => [file.path, file.data.toString()])).toEqual([[paths[0], 'its own\n']]);
    const refused = await openInPlace(place, [paths[1]!, join(home, 'linked-folder', 'secret.jsonl')]);
    expect(refused).toEqual([
      { path: paths[1], refused: 'outside', why: `${paths[1]} is a link` },
      expect.objectContaining({ refused: 'outside', why: expect.stringMatching(/leads elsewhere \(to .*elsewhere\/secret\.jsonl\)$/) }),
    ]);
  });

  it('writes beside a planted link and renames over it: the link is replaced, its target untouched; a folder that is a link is refused', async () => {
    const place: AgentPlace = { root: home };
    await symlink(join(elsewhere, 'secret.jsonl'), join(home, 'sessions', 'planted.jsonl'));
    await writeInPlace(place, join(home, 'sessions', 'planted.jsonl'), Buffer.from('restored'));
    expect(await readFile(join(elsewhere, 'secret.jsonl'), 'utf8')).toBe('the secret\n');
    expect((await lstat(join(home, 'sessions', 'planted.jsonl'))).isFile()).toBe(true);
    expect(await readFile(join(home, 'sessions', 'planted.jsonl'), 'utf8')).toBe('restored');

    await writeInPlace(place, join(home, 'new', 'deeper', 'made.jsonl'), Buffer.from('made'));
    expect(await readFile(join(home, 'new', 'deeper', 'made.jsonl'), 'utf8')).toBe('made');

    await symlink(elsewhere, join(home, 'linked-folder'));
    await expect(writeInPlace(place, join(home, 'linked-folder', 'written.jsonl'), Buffer.from('x'))).rejects.toThrow(/linked-folder is a link/);
    await expect(writeInPlace(place, join(elsewhere, 'written.jsonl'), Buffer.from('x'))).rejects.toThrow(/is outside/);
    await expect(lstat(join(elsewhere, 'written.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});

const skip = cannotSwitchUser();
describe.skipIf(skip)(`a place of ${AGENT_USER}'s${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('reads only what that user reads itself: a root-only 0600 file in it is refused, saying so; its own files are read', async () => {
    const ids = agentIds()!;
    await chown(join(home, 'sessions', 'own.jsonl'), ids.uid, ids.gid);
    await chmod(join(home, 'sessions', 'own.jsonl'), 0o600);
    await writeFile(join(home, 'sessions', 'roots.jsonl'), 'root only\n', { mode: 0o600 });
    const place: AgentPlace = { root: home, owner: ids };
    const paths = ['own.jsonl', 'roots.jsonl'].map((name) => join(home, 'sessions', name));
    expect((await readInPlace(place, paths, 1024)).map((file) => file.data.toString())).toEqual(['its own\n']);
    const [own, refused] = await openInPlace(place, paths);
    if (own && 'handle' in own) await own.handle.close();
    expect(refused).toEqual({ path: paths[1], refused: 'unreadable', why: `${paths[1]} is not readable by the agent user` });
  });

  it('writes as that user: the file is its own, and a link it planted is replaced, not written through', async () => {
    const ids = agentIds()!;
    await chown(home, ids.uid, ids.gid);
    await chown(join(home, 'sessions'), ids.uid, ids.gid);
    await writeFile(join(dir.path, 'roots-file'), 'root only\n', { mode: 0o644 });
    await symlink(join(dir.path, 'roots-file'), join(home, 'sessions', 'planted.jsonl'));
    const place: AgentPlace = { root: home, owner: ids };
    await writeInPlace(place, join(home, 'sessions', 'planted.jsonl'), Buffer.from('restored'));
    await writeInPlace(place, join(home, 'sessions', 'sub', 'made.jsonl'), Buffer.from('made'));
    expect(await readFile(join(dir.path, 'roots-file'), 'utf8')).toBe('root only\n');
    for (const path of [join(home, 'sessions', 'planted.jsonl'), join(home, 'sessions', 'sub', 'made.jsonl')]) {
      const info = await lstat(path);
      expect({ file: info.isFile(), uid: info.uid, mode: info.mode & 0o777 }).toEqual({ file: true, uid: ids.uid, mode: 0o600 });
    }
    // A folder the agent user may not write is not written as root either.
    await expect(writeInPlace({ root: dir.path, owner: ids }, join(elsewhere, 'x.jsonl'), Buffer.from('x'))).rejects.toThrow(/Permission denied/);
    await expect(readlink(join(home, 'sessions', 'planted.jsonl'))).rejects.toThrow(/EINVAL/);
  });
});
