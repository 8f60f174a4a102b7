import { commaList } from '../../kernel/settings/variables.ts';
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { isInside } from './directories.ts';

export interface ProjectsConfig {
  /** Where every chat starts (BRIDGE_WORKDIR), resolved. */
  workdir: string;
  /** Directories a chat may work in (they and everything below), resolved. */
  projectRoots: string[];
  /** Named directories for /project, inside the roots. */
  projects: Map<string, string>;
  /** The bridge's own places (data directory, homes, agent space), resolved: no chat works in them, even where the roots cover them. */
  offLimits: string[];
}

const PROJECT_NAME = /^[A-Za-z0-9][\w.-]{0,31}$/;

/**
 * `BRIDGE_WORKDIR`, `BRIDGE_PROJECT_ROOTS` (default: the working directory) and `BRIDGE_PROJECTS`
 * (`name=path,…`), with `offLimits` (the bridge's own places), which the start checks them against.
 */
export async function loadProjects(env: NodeJS.ProcessEnv, cwd: string, offLimits: string[] = []): Promise<ProjectsConfig> {
  const directory = (path: string, variable: string) => existingDirectory(cwd, path, variable);
  const home = await directory(env.BRIDGE_WORKDIR?.trim() || '.', 'BRIDGE_WORKDIR');
  const rawRoots = env.BRIDGE_PROJECT_ROOTS?.trim();
  const projectRoots = rawRoots ? await Promise.all(commaList(rawRoots).map((root) => directory(root, 'BRIDGE_PROJECT_ROOTS'))) : [home];
  if (!projectRoots.some((root) => isInside(home, root))) {
    throw new ConfigError(`BRIDGE_WORKDIR: ${home} is outside BRIDGE_PROJECT_ROOTS (${projectRoots.join(', ')}); chats start there, so it must be inside`);
  }
  const projects = new Map<string, string>();
  for (const entry of commaList(env.BRIDGE_PROJECTS)) {
    const split = entry.indexOf('=');
    const name = entry.slice(0, split).trim();
    if (split < 0 || !PROJECT_NAME.test(name))
      throw new ConfigError(`BRIDGE_PROJECTS: expected name=path (a name of letters, digits, ".", "_" or "-"), got "${entry}"`);
    if (projects.has(name)) throw new ConfigError(`BRIDGE_PROJECTS: "${name}" is named twice`);
    const dir = await directory(entry.slice(split + 1).trim(), `BRIDGE_PROJECTS (${name})`);
    if (!projectRoots.some((root) => isInside(dir, root)))
      throw new ConfigError(`BRIDGE_PROJECTS: ${name}=${dir} is outside BRIDGE_PROJECT_ROOTS (${projectRoots.join(', ')})`);
    projects.set(name, dir);
  }
  return { workdir: home, projectRoots, projects, offLimits };
}

/**
 * At the start of the bridge or a worker: a directory the bridge keeps its own state in (or
 * below one) cannot be given to chats, so a setting that does stops the start, saying how to
 * fix it. (A root that holds one is the default layout, `./data`: the walls mask it.)
 */
export function refuseStateInProjects({ workdir, projectRoots, projects, offLimits }: ProjectsConfig): void {
  const given: [string, string][] = [
    ['BRIDGE_WORKDIR', workdir],
    ...projectRoots.map((root): [string, string] => ['BRIDGE_PROJECT_ROOTS', root]),
    ...[...projects].map(([name, dir]): [string, string] => [`BRIDGE_PROJECTS (${name})`, dir]),
  ];
  for (const [variable, dir] of given) {
    const place = offLimits.find((place) => isInside(dir, place));
    if (place)
      throw new ConfigError(
        `${variable}: ${dir} is inside ${place}, where the bridge keeps its own state (data directory, sandbox homes, agent space), which no agent may reach; choose a directory outside it, or move BRIDGE_DATA_DIR elsewhere`,
      );
  }
}

async function existingDirectory(cwd: string, path: string, variable: string): Promise<string> {
  const absolute = resolve(cwd, path);
  const real = await realpath(absolute).catch(() => undefined);
  if (real && (await stat(real).catch(() => undefined))?.isDirectory()) return real;
  throw new ConfigError(`${variable}: ${absolute} is not an existing directory`);
}
