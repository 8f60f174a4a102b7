import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProjects, refuseStateInProjects } from '../../src/engine/projects/projects-settings.ts';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';
import { tempDir } from '../support/bridge-process.ts';

let dir: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  dir = await tempDir('projects-');
  await mkdir(join(dir.path, 'roots', 'a', 'app'), { recursive: true });
  await mkdir(join(dir.path, 'roots', 'b'), { recursive: true });
  await mkdir(join(dir.path, 'elsewhere'), { recursive: true });
});
afterEach(() => dir.remove());

const load = (env: Record<string, string>) => loadProjects({ BRIDGE_WORKDIR: 'roots/a', ...env }, dir.path);

describe('BRIDGE_PROJECT_ROOTS and BRIDGE_PROJECTS', () => {
  it('default to the working directory as the one root, and no names', async () => {
    expect(await load({})).toEqual({ workdir: join(dir.path, 'roots', 'a'), projectRoots: [join(dir.path, 'roots', 'a')], projects: new Map(), offLimits: [] });
  });

  it('give no chat a directory in the bridge’s own places, though a root may cover them', async () => {
    const data = join(dir.path, 'roots', 'a', 'app');
    const config = await loadProjects({ BRIDGE_WORKDIR: 'roots/a' }, dir.path, [data]);
    expect(config.offLimits).toEqual([data]);
    expect(() => refuseStateInProjects(config)).not.toThrow();
    const refused = async (env: Record<string, string>) => {
      try {
        refuseStateInProjects(await loadProjects(env, dir.path, [data]));
        return 'not refused';
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
    };
    expect(await refused({ BRIDGE_WORKDIR: 'roots/a/app' })).toBe(
      `BRIDGE_WORKDIR: ${data} is inside ${data}, where the bridge keeps its own state (data directory, sandbox homes, agent space), which no agent may reach; choose a directory outside it, or move BRIDGE_DATA_DIR elsewhere`,
    );
    expect(await refused({ BRIDGE_WORKDIR: 'roots/a', BRIDGE_PROJECTS: 'app=roots/a/app' })).toMatch(/^BRIDGE_PROJECTS \(app\): /);
    expect(await refused({ BRIDGE_WORKDIR: 'roots/a', BRIDGE_PROJECT_ROOTS: 'roots/a,roots/a/app' })).toMatch(/^BRIDGE_PROJECT_ROOTS: /);
  });

  it('read several roots and named projects inside them', async () => {
    const config = await load({ BRIDGE_PROJECT_ROOTS: 'roots/a, roots/b', BRIDGE_PROJECTS: 'app=roots/a/app,b=roots/b' });
    expect(config.projectRoots).toEqual([join(dir.path, 'roots', 'a'), join(dir.path, 'roots', 'b')]);
    expect([...config.projects]).toEqual([
      ['app', join(dir.path, 'roots', 'a', 'app')],
      ['b', join(dir.path, 'roots', 'b')],
    ]);
  });

  it.each([
    [{ BRIDGE_PROJECT_ROOTS: 'roots/missing' }, `BRIDGE_PROJECT_ROOTS: ${join('<dir>', 'roots', 'missing')} is not an existing directory`],
    [{ BRIDGE_PROJECT_ROOTS: 'roots/b' }, 'BRIDGE_WORKDIR: <dir>/roots/a is outside BRIDGE_PROJECT_ROOTS (<dir>/roots/b)'],
    [{ BRIDGE_PROJECTS: 'x=elsewhere' }, 'BRIDGE_PROJECTS: x=<dir>/elsewhere is outside BRIDGE_PROJECT_ROOTS (<dir>/roots/a)'],
    [{ BRIDGE_PROJECTS: 'no-equals-sign' }, 'BRIDGE_PROJECTS: expected name=path'],
    [{ BRIDGE_PROJECTS: 'app=roots/a/app,app=roots/a' }, 'BRIDGE_PROJECTS: "app" is named twice'],
  ])('refuses a bad setting, naming the variable (%#)', async (env, message) => {
    const error = await load(env).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message.replaceAll('<dir>', dir.path));
  });
});
