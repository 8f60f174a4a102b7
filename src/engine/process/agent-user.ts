import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import type { Owner } from '../sandbox/helper-env.ts';

/**
 * The OS user agents run as (BRIDGE_AGENT_USER): every CLI, what it runs (tools, hooks, MCP
 * servers) and the git commands for runs. Another user than the bridge's cannot read the
 * bridge's environment (/proc/<pid>/environ is the same uid's or root's) or its data directory
 * (0700), where the bot token and every live secret are.
 */
export interface AgentUser extends Owner {
  name: string;
  home: string;
}

/** Capability bits of /proc/self/status CapEff that switching user and signalling its processes need. */
const NEEDED_CAPABILITIES = { CAP_KILL: 5, CAP_SETGID: 6, CAP_SETUID: 7 } as const;

/** The user BRIDGE_AGENT_USER names (a name or a uid), looked up as the system does (getent: local files, LDAP…). */
export async function resolveAgentUser(raw: string | undefined): Promise<AgentUser | undefined> {
  const wanted = raw?.trim();
  if (!wanted) return undefined;
  if (!/^[a-z_][\w.-]*\$?$|^\d+$/i.test(wanted)) throw new ConfigError(`BRIDGE_AGENT_USER: expected a user name or uid, got "${wanted}"`);
  const result = await execa('getent', ['passwd', wanted], { reject: false, stdin: 'ignore' });
  const fields = result.exitCode === 0 ? result.stdout.split('\n')[0]!.split(':') : [];
  if (fields.length < 7)
    throw new ConfigError(
      `BRIDGE_AGENT_USER: there is no user "${wanted}" on this machine (make one: useradd --create-home --shell /bin/bash ${/^\d+$/.test(wanted) ? 'jsonl-agent' : wanted})`,
    );
  const user = { name: fields[0]!, uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5]! };
  if (user.uid === 0) throw new ConfigError(`BRIDGE_AGENT_USER: "${wanted}" is root; agents must run as an unprivileged user of their own`);
  if (user.uid === process.getuid?.())
    throw new ConfigError(`BRIDGE_AGENT_USER: "${wanted}" is the user the bridge runs as; name another user, or leave it unset`);
  assertCanSwitch(user);
  return user;
}

/** Switching to the agent user needs root, or CAP_SETUID and CAP_SETGID, and CAP_KILL to stop its process groups. */
function assertCanSwitch(user: AgentUser): void {
  if (process.getuid?.() === 0) return;
  const missing = missingCapabilities();
  if (!missing.length) return;
  throw new ConfigError(
    `BRIDGE_AGENT_USER: running agents as ${user.name} needs the bridge to run as root, or with ${Object.keys(NEEDED_CAPABILITIES).join(', ')} (missing: ${missing.join(', ')}; e.g. AmbientCapabilities= in its systemd unit)`,
  );
}

function missingCapabilities(): string[] {
  let effective = 0n;
  try {
    const line = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    effective = line ? BigInt(`0x${line[1]}`) : 0n;
  } catch {
    // no /proc: nothing can be shown to be there
  }
  return Object.entries(NEEDED_CAPABILITIES)
    .filter(([, bit]) => !(effective & (1n << BigInt(bit))))
    .map(([name]) => name);
}

/**
 * The folder of what agents read and write outside the projects (see agent-space.ts): in
 * /tmp, not the bridge's TMPDIR, which may be a folder of its own user's that no other enters.
 */
export function agentSpace(user: AgentUser): string {
  return join('/tmp', `jsonl-bridge-agents-${user.uid}`);
}

/** The agent user's own temp directory (TMPDIR): the bridge's may be its own user's alone. */
export function agentTemp(user: AgentUser): string {
  return join(agentSpace(user), 'tmp');
}

/** The user agents run as, once the entry point has said (see `runAgentsAs`). */
let current: AgentUser | undefined;

/** Set once at start by the bridge, a worker or the doctor: every later agent process runs as `user`. */
export function runAgentsAs(user: AgentUser | undefined): void {
  current = user;
}

export function agentUser(): AgentUser | undefined {
  return current;
}

/**
 * What a process started for an agent runs with: the agent user's uid and gid (Node drops every
 * supplementary group when it switches, so the agent has its primary group only), and the
 * environment of that user (HOME, USER, LOGNAME: each CLI's credentials are the agent user's;
 * TMPDIR its own).
 * Git in the agent's directory trusts it (`safe.directory`, from the environment, which git
 * takes as command-line configuration): the repository is someone else's, the bridge's user's.
 */
export function asAgent(env: Record<string, string | undefined>, cwd: string): { uid?: number; gid?: number; env: Record<string, string | undefined> } {
  const user = current;
  if (!user) return { env };
  return {
    uid: user.uid,
    gid: user.gid,
    env: { ...env, HOME: user.home, USER: user.name, LOGNAME: user.name, TMPDIR: agentTemp(user), ...withGitConfig(env, trustedDirectories(cwd)) },
  };
}

/**
 * The directories git must trust for a command in `cwd`: the repository it is in has its top
 * level at `cwd` or above it, and git checks the top level's owner against `safe.directory`
 * (git before 2.46 takes no wildcards there).
 */
export function trustedDirectories(cwd: string): string[] {
  const dirs = [resolve(cwd)];
  while (dirs.at(-1) !== '/') dirs.push(dirname(dirs.at(-1)!));
  return dirs;
}

/** `env` plus `safe.directory` entries in GIT_CONFIG_COUNT/KEY_n/VALUE_n, after any already there. */
function withGitConfig(env: Record<string, string | undefined>, dirs: string[]): Record<string, string> {
  const start = Number(env.GIT_CONFIG_COUNT) || 0;
  const added: Record<string, string> = { GIT_CONFIG_COUNT: String(start + dirs.length) };
  dirs.forEach((dir, i) => {
    added[`GIT_CONFIG_KEY_${start + i}`] = 'safe.directory';
    added[`GIT_CONFIG_VALUE_${start + i}`] = dir;
  });
  return added;
}
