import { createHash } from 'node:crypto';
import { existsSync, rmSync, chownSync, chmodSync, mkdtempSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { Server } from 'node:net';
import { bwrapArgv, SOCKETS_INSIDE, systemEntries, type Forward, type SystemEntry } from './bwrap-argv.ts';
import type { SandboxDecision, SandboxUid } from './sandbox-decision.ts';
import { relayToTcp } from './socket-relay.ts';
import { egressProxy } from './egress-proxy.ts';
import type { HostRule } from './host-rules.ts';
import { egressPolicy, proxyWatch } from './scope-egress.ts';
import type { CliConfig, CliInWalls, WalledClis, WallScope } from './wall-scope.ts';
import { copyIntoHome, seedHome } from './home-seed.ts';
import { runAs, type Owner } from './helper-env.ts';
import { clearConfig, configBinds, layTerminalHome, madeBlanks, terminalHomeOf } from './operator-config.ts';
import { credentialProxy, heldApi, withoutCredentials } from './credential-proxy.ts';
import { installation } from './installation.ts';
import { sharedProgram } from './program-cache.ts';
import { credentialVariables } from './model-api-access.ts';
import type { ProxyMetering } from './proxy-metering.ts';

/** A CLI's command put inside its walls, the sandbox's uid it runs as (the agent user's, or the bridge's own), and what to close when it has exited. */
export interface Enclosure extends Owner {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  close(): void;
}

interface Raised {
  uid: SandboxUid;
  bwrap: string;
  socat: string;
  system: SystemEntry[];
  /** Where each scope's home is kept. */
  homes: string;
  /** The home the operator's CLI settings, logins and git identity come from: the sandbox uid's own. */
  settings: string;
  /** Every CLI the bridge drives, as its adapter says of it in walls: each sandbox reaches their model APIs, and holds none of their keys. */
  clis: CliInWalls[];
  /** The bridge's own identity (its data directory's): two bridges with one agent user never share a home. */
  identity?: string;
  /** Where each process's folder of sockets is made (reachable by the sandbox's uid). */
  sockets: string;
  /** Hosts every sandbox may reach: BRIDGE_SANDBOX_ALLOW. */
  allow: HostRule[];
  /** Internal addresses and ranges a sandbox may reach where a list allows them: BRIDGE_SANDBOX_INTERNAL. */
  internal: HostRule[];
  /** How the credential proxies price what they pass; none: calls are metered in tokens only. */
  metering?: ProxyMetering;
  /** The bridge's own places (data directory, homes, agent space): masked wherever a bind would show them. */
  masked: string[];
}

let raised: Raised | undefined;

/** Set once at start by the bridge or a worker: from now on every CLI process runs inside walls. */
export function raiseWalls(
  decision: SandboxDecision,
  places: Pick<Raised, 'homes' | 'sockets'> &
    Partial<Pick<Raised, 'allow' | 'internal' | 'metering' | 'identity' | 'settings' | 'masked'>> & { adapters?: WalledClis },
): void {
  raised = decision.on
    ? {
        uid: decision.uid,
        bwrap: decision.bwrap,
        socat: decision.socat,
        system: systemEntries(),
        allow: [],
        internal: [],
        masked: [],
        settings: decision.uid.home,
        ...places,
        clis: [...(places.adapters ?? [])].map((adapter) => adapter.walls),
      }
    : undefined;
}

export function lowerWalls(): void {
  raised = undefined;
}

export function wallsUp(): boolean {
  return raised !== undefined;
}

/** The home the walls show each CLI's configuration from, read-only (the sandbox uid's own); undefined when they are down. */
export function settingsHome(): string | undefined {
  return raised?.settings;
}

/**
 * A scope's home as the host sees it, for the files its CLI keeps there: the environment that
 * names it (less the variables naming the CLI's host folders, as inside) and the uid it belongs
 * to. Undefined when the walls are down.
 */
export function homeOutside(
  scope: string,
  env: Record<string, string | undefined>,
  cli?: CliInWalls,
): { env: Record<string, string | undefined>; owner: Owner } | undefined {
  if (!raised) return undefined;
  return { env: { ...outsidePathsLeftOut(env, cli?.unset), HOME: scopeHome(scope) }, owner: { uid: raised.uid.uid, gid: raised.uid.gid } };
}

/** Where a scope's home is on the host (made on first use, by the sandbox's uid: it is that uid's own), named for the bridge and the scope. */
export function scopeHome(scope: string): string | undefined {
  if (!raised) return undefined;
  return homeNamed(raised, scope, raised.identity);
}

function homeNamed(walls: Raised, scope: string, identity: string | undefined): string {
  const readable = scope.replace(/[^\w.-]/g, '_').slice(0, 60);
  const hash = createHash('sha256')
    .update(identity ? `${identity}\0${scope}` : scope)
    .digest('hex')
    .slice(0, 8);
  return join(walls.homes, `${readable}-${hash}`);
}

/**
 * A scope's home, made by the sandbox's uid if it is not there yet. A home named for the
 * scope alone (before homes were named for their bridge) is taken over by the first bridge
 * to want it, so its sessions still resume.
 */
function madeHome(walls: Raised, scope: string): string {
  const home = homeNamed(walls, scope, walls.identity);
  if (existsSync(home)) return home;
  const before = walls.identity ? homeNamed(walls, scope, undefined) : undefined;
  if (before && existsSync(before)) runAs(walls.uid, 'mv', ['-T', '-n', before, home]);
  if (!existsSync(home)) runAs(walls.uid, 'mkdir', ['-p', '-m', '700', home]);
  return home;
}

/**
 * The home a terminal continues a scope's session in (`/handoff`): beside the scope's, with
 * the operator's configuration laid there (afresh when `fresh`, else once), and the rest of
 * the scope's home linked (see layTerminalHome). Undefined when the walls are down.
 */
export function terminalHome(scope: string, cli: CliConfig | undefined, fresh: boolean): string | undefined {
  if (!raised) return undefined;
  const home = madeHome(raised, scope);
  if (!fresh && existsSync(terminalHomeOf(home))) return terminalHomeOf(home);
  return layTerminalHome(raised.settings, home, cli, raised.uid);
}

/**
 * A session its uid's CLI saved outside any walls (started in a terminal), copied into a
 * scope's home at the same place, so the CLI in walls resumes it. False when the file is not
 * in that uid's home (nothing then to bring).
 */
export function bringIntoHome(scope: string, file: string): boolean {
  if (!raised) return false;
  const path = relative(raised.uid.home, file);
  if (path.startsWith('..') || isAbsolute(path)) return false;
  copyIntoHome(raised.uid.home, madeHome(raised, scope), path, raised.uid);
  return true;
}

/**
 * `command args` wrapped in bubblewrap, with the environment it runs with inside: its own
 * HOME and /tmp. The caller spawns it as the sandbox's uid, and calls `close` after its exit.
 */
export function enclose(launch: { command: string; args: string[]; cwd: string; env: Record<string, string | undefined> }, scope: WallScope): Enclosure {
  const walls = raised;
  if (!walls) throw new Error('the walls are not up');
  const home = madeHome(walls, scope.home);
  // Every CLI the bridge drives and this one: the sandbox reaches their model APIs, and holds none of their keys.
  const clis = walls.clis.concat(scope.cli ?? []);
  // The CLI's login its uid has outside, as it is now; its configuration the operator's, as it is now, read-only.
  seedHome(walls.settings, home, walls.uid, scope.cli);
  const present = clearConfig(walls.settings, home, scope.cli, walls.uid);
  const homeConfig = configBinds(scope.cli, { host: home, inside: walls.uid.home, source: walls.settings }, present, madeBlanks(walls.sockets));
  const sockets = mkdtempSync(join(walls.sockets, `jsonl-bridge-walls-${process.pid}-`));
  const servers: Server[] = [];
  const forwards: Forward[] = [];
  const mcp = scope.mcpUrl ? loopbackPort(scope.mcpUrl) : undefined;
  const [egressPort, modelPort] = INSIDE_PORTS.filter((port) => port !== mcp?.port) as [number, number];
  // The model API credential stays out: the CLI calls the credential proxy, which adds it.
  const api = heldApi(launch.env, scope.cli?.modelApi);
  const close = once(() => {
    for (const server of servers) server.close();
    rmSync(sockets, { recursive: true, force: true });
  });
  try {
    chownSync(sockets, walls.uid.uid, walls.uid.gid);
    chmodSync(sockets, 0o700);
    if (mcp) {
      servers.push(relayToTcp(join(sockets, 'mcp.sock'), mcp.host, mcp.port));
      forwards.push({ port: mcp.port, socket: 'mcp.sock' });
    }
    servers.push(egressProxy(join(sockets, 'egress.sock'), egressPolicy(walls, scope, clis, launch.env)));
    forwards.push({ port: egressPort, socket: 'egress.sock' });
    if (api) {
      servers.push(credentialProxy(join(sockets, 'model.sock'), api, proxyWatch(scope, api.upstream.host, walls.metering)));
      forwards.push({ port: modelPort, socket: 'model.sock' });
    }
  } catch (error) {
    close();
    throw error;
  }
  const installed = installation(launch.command, launch.env.PATH);
  const keys = credentialVariables(clis.map((cli) => cli.modelApi));
  const inside = withoutCredentials(outsidePathsLeftOut(launch.env, scope.cli?.unset), api, `http://127.0.0.1:${modelPort}`, keys);
  const cache = scope.cli?.programCache;
  const program = cache && sharedProgram(cache, installed.command, walls.homes, walls.uid);
  if (cache && program) inside.env[cache.env] = program;
  const args = bwrapArgv({
    system: walls.system,
    readOnly: [...installed.readOnly, ...(program ? [program] : []), ...(scope.readable ?? [])].filter((path, i, all) => all.indexOf(path) === i),
    cwd: launch.cwd,
    writableCwd: !scope.readOnly,
    home: { host: home, inside: walls.uid.home },
    homeConfig,
    sockets,
    masked: walls.masked,
    forwards,
    socat: walls.socat,
    command: installed.command,
    args: [...inside.args, ...launch.args],
  });
  return {
    command: walls.bwrap,
    args,
    env: {
      ...inside.env,
      HOME: walls.uid.home,
      TMPDIR: '/tmp',
      JSONL_BRIDGE_SANDBOX: SOCKETS_INSIDE,
      ...proxyVariables(`http://127.0.0.1:${egressPort}`),
    },
    uid: walls.uid.uid,
    gid: walls.uid.gid,
    close,
  };
}

/** The environment without the variables naming the CLI's folders on the host: they are not inside. */
function outsidePathsLeftOut(env: Record<string, string | undefined>, names: string[] = []): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}

/** The egress and credential proxies' ports on the sandbox's loopback: the first two that are not the MCP endpoint's. */
const INSIDE_PORTS = [3128, 3129, 3130];

/** Every way CLIs and their tools (curl, npm, pip, git) are told of a proxy; the sandbox's own loopback goes direct. */
function proxyVariables(url: string): Record<string, string> {
  const noProxy = 'localhost,127.0.0.1,::1';
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: noProxy, no_proxy: noProxy };
}

/** The host and port of a loopback URL (the MCP endpoint): what the sandbox's own loopback forwards. */
function loopbackPort(url: string): { host: string; port: number } | undefined {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) return undefined;
  return { host: host === 'localhost' ? '127.0.0.1' : host, port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)) };
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (!done) action();
    done = true;
  };
}
