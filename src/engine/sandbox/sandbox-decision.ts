import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { ConfigError } from '../../kernel/errors/config-error.ts';
import { bwrapArgv, systemEntries } from './bwrap-argv.ts';
import type { SandboxConfig } from './sandbox-config.ts';
import type { HostRule } from './host-rules.ts';
import type { Owner } from './helper-env.ts';

/** Who the walls' processes run as: never root, whose uid owns the host's files whatever is bound. */
export interface SandboxUid extends Owner {
  /** Its home's path, where each sandbox's own home appears inside. */
  home: string;
  /** BRIDGE_AGENT_USER's name, or none: the bridge's own user. */
  name?: string;
}

export type SandboxDecision =
  | { on: true; why: string; uid: SandboxUid; bwrap: string; socat: string }
  /** `fix`: what puts the walls up, for what is actually missing or wrong here (none when off by choice). */
  | { on: false; why: string; fix?: string };

/**
 * BRIDGE_SANDBOX made true or false, once at start: `off` is off; `bwrap` is on or stops the
 * start (a ConfigError naming what is missing); `auto` is on where bubblewrap runs a process
 * as a uid that is not root, else off, saying why; but a bridge run as root with no agent user
 * would run its CLIs as root outside any walls, able to read its environment and everything
 * else: only `off` says so, and `auto` stops the start saying what to type.
 */
export async function decideSandbox(config: SandboxConfig, agent: SandboxUid | undefined, env: NodeJS.ProcessEnv = process.env): Promise<SandboxDecision> {
  if (config.setting === 'off') return { on: false, why: 'BRIDGE_SANDBOX=off' };
  const found = await sandboxProblem(agent, env);
  if ('uid' in found) {
    const who = agent?.name ? `${agent.name} (BRIDGE_AGENT_USER, uid ${agent.uid})` : `the bridge’s own user (uid ${found.uid.uid})`;
    return { on: true, why: `every CLI runs in a bubblewrap sandbox as ${who}`, ...found };
  }
  if (config.setting === 'bwrap') throw new ConfigError(`BRIDGE_SANDBOX=bwrap: ${found.problem}`);
  if (!agent && process.getuid?.() === 0) throw new ConfigError(ROOT_WITHOUT_AGENT_USER);
  return { on: false, why: `BRIDGE_SANDBOX=auto runs CLIs without walls: ${found.problem}`, fix: found.fix };
}

/** What a bridge started as root with no agent user says, in one line, before it stops. */
export const ROOT_WITHOUT_AGENT_USER =
  'the bridge runs as root with no BRIDGE_AGENT_USER, so its CLIs would run as root outside any walls: give them a user of their own, `useradd --create-home jsonl-agent && BRIDGE_AGENT_USER=jsonl-agent npm start` (it needs write access to your projects: docs/agent-user.md), or start with BRIDGE_SANDBOX=off to run them as root unwalled';

/** What keeps the walls down, and what puts them up: only what is missing or wrong here is named. */
async function sandboxProblem(
  agent: SandboxUid | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ problem: string; fix: string } | { uid: SandboxUid; bwrap: string; socat: string }> {
  const uid = agent ?? ownUid(env);
  const bwrap = onPath('bwrap', env);
  const socat = onPath('socat', env);
  const packages = [bwrap ? '' : 'bubblewrap', socat ? '' : 'socat'].filter(Boolean);
  const install = packages.length ? `install ${packages.join(' and ')} (apt-get install ${packages.join(' ')})` : '';
  const then = ', so each CLI runs in walls.';
  if (!uid)
    return {
      problem: 'the bridge runs as root and no BRIDGE_AGENT_USER is set (a sandbox as root still reads what root may; set BRIDGE_AGENT_USER)',
      fix: `Set BRIDGE_AGENT_USER to a user of its own (docs/agent-user.md)${install ? ` and ${install}` : ''}${then}`,
    };
  const missing = [bwrap ? '' : 'bwrap (apt-get install bubblewrap)', socat ? '' : 'socat (apt-get install socat)'].filter(Boolean);
  if (missing.length) return { problem: `${missing.join(' and ')} not found on PATH`, fix: `${install[0]!.toUpperCase()}${install.slice(1)}${then}` };
  const failure = await probe(bwrap!, uid);
  if (failure)
    return {
      problem: `bubblewrap cannot run here (${failure}); unprivileged user namespaces may be off (sysctl kernel.unprivileged_userns_clone=1, or AppArmor's restrict_unprivileged_userns)`,
      fix: `Let bubblewrap make user namespaces here (turn them on, or make bwrap setuid as Debian's package does: docs/sandbox.md)${then}`,
    };
  return { uid, bwrap: bwrap!, socat: socat! };
}

function ownUid(env: NodeJS.ProcessEnv): SandboxUid | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return undefined;
  return { uid, gid: process.getgid?.() ?? uid, home: env.HOME || '/tmp' };
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '/usr/bin:/bin').split(':').filter(Boolean)) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** `true` in the walls a CLI gets, as the uid it would run as: the first line of what went wrong, or undefined. */
async function probe(bwrap: string, who: SandboxUid): Promise<string | undefined> {
  const argv = bwrapArgv({
    system: systemEntries(),
    readOnly: [],
    cwd: '/usr',
    writableCwd: false,
    home: { host: '/usr', inside: '/home/probe' },
    sockets: '/usr',
    forwards: [],
    socat: '',
    command: 'true',
    args: [],
  });
  const result = await execa(bwrap, argv, {
    uid: who.uid,
    gid: who.gid,
    reject: false,
    stdin: 'ignore',
    timeout: 10_000,
    env: { PATH: '/usr/bin:/bin' },
    extendEnv: false,
  });
  if (result.exitCode === 0) return undefined;
  return (
    String(result.stderr || result.message || '')
      .trim()
      .split('\n')[0] || `exit ${result.exitCode}`
  );
}

/** The sandbox as the bridge runs it: whether its walls are up, the hosts every sandbox may reach, and the internal addresses a list may open. */
export interface Sandbox {
  decision: SandboxDecision;
  allow: HostRule[];
  internal: HostRule[];
}
