import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { agentSpace, type AgentUser } from './agent-user.ts';

/*
 * The bridge's own places, which no agent may reach whatever the layout: its data directory
 * (sessions, transcripts, web bearers, the share key), the sandboxes' homes (every chat's
 * CLI state) and, with an agent user, the agent space (every run's worktree and MCP config).
 * They are masked inside the walls (an operator's roots may cover them: `./data` in the
 * working directory is the default) and refused as a chat's directory.
 */

/** Where each sandbox's home is kept: the agent user's own home when agents run as one (bwrap binds it as that uid), else the data directory. */
export function sandboxHomes(dataDir: string, user: AgentUser | undefined): string {
  return user ? join(user.home, '.jsonl-bridge', 'homes') : join(dataDir, 'homes');
}

/** The bridge's places, as they really are (links resolved; a place not made yet, below its parent as it really is). */
export function statePlaces(dataDir: string, user: AgentUser | undefined): string[] {
  const places = [dataDir, sandboxHomes(dataDir, user), ...(user ? [agentSpace(user)] : [])];
  return places.map(real).filter((place, i, all) => all.indexOf(place) === i);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(real(parent), basename(path));
  }
}
