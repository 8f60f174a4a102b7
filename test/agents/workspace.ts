import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadAgents } from '../../src/engine/agents/load.ts';

export const KNOWN_CLIS = ['claude', 'codex', 'droid'] as const;
/** The MCP servers the operator configured, as far as these tests are concerned. */
export const KNOWN_MCP_SERVERS = ['github', 'docs'] as const;

/** A throwaway project folder and user folder, with helpers to write agents into them. */
export interface Workspace {
  root: string;
  workdir: string;
  userDir: string;
  write(path: string, content: string | Buffer): Promise<string>;
  load(): ReturnType<typeof loadAgents>;
  cleanup(): Promise<void>;
}

export async function makeWorkspace(): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), 'agents-'));
  const workdir = join(root, 'project');
  const userDir = join(root, 'data', 'agents');
  await mkdir(workdir, { recursive: true });
  return {
    root,
    workdir,
    userDir,
    async write(path, content) {
      const full = join(root, path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, content);
      return full;
    },
    load: () => loadAgents({ workdir, userDir, known: { clis: KNOWN_CLIS, mcpServers: KNOWN_MCP_SERVERS } }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export const agentJson = (fields: Record<string, unknown>): string => JSON.stringify(fields, null, 2);
