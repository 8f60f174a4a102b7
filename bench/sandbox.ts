import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { Turn } from '../src/engine/session/turn.ts';
import { runAgentsAs } from '../src/engine/process/agent-user.ts';
import { decideSandbox, type SandboxDecision } from '../src/engine/sandbox/sandbox-decision.ts';
import { lowerWalls, raiseWalls, scopeHome } from '../src/engine/sandbox/walls.ts';
import { credentialProxy, heldApi } from '../src/engine/sandbox/credential-proxy.ts';
import { fakeAdapter } from '../test/support/fake-cli.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../test/support/agent-user.ts';
import { CLI_BINARIES, CODEX_MODEL, prepareCliEnv } from '../test/support/cli-env.ts';
import { parseAdapterManifest } from '../src/engine/adapters/load.ts';
import { startMockModel } from '../test/support/mock-model/index.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { percentile } from './bot.ts';
import type { BenchResult } from './report.ts';

const ROUNDS = 15;
const CALLS = 200;

/**
 * What the sandbox costs: a CLI's turn (its start, and with the real claude and codex one model call)
 * in walls against none, alternated in one run; and the credential proxy's own hop on a
 * model call (the host side: a Unix socket to the proxy, then the API).
 */
export async function benchSandbox(dir: string): Promise<BenchResult[]> {
  const skip = cannotSwitchUser();
  if (skip) return [{ suite: 'sandbox', name: 'skipped', value: 0, unit: '', note: skip }];
  const { uid, gid } = agentIds()!;
  const user = { name: AGENT_USER, uid, gid, home: `/home/${AGENT_USER}` };
  const decision = await decideSandbox({ setting: 'bwrap', allow: [] }, user);
  // The agent user passes through the bench's folders to its own.
  for (const folder of [dirname(dir), dir]) await chmod(folder, 0o711);
  const homes = join(dir, 'homes');
  const work = join(dir, 'work');
  for (const folder of [homes, work]) {
    await mkdir(folder, { mode: 0o700 });
    await chown(folder, uid, gid);
  }
  const mock = await startMockModel({ script: () => ({ text: 'hi' }) });
  const claude = await prepareCliEnv('claude', mock.url);
  execFileSync('chown', ['-R', `${uid}:${gid}`, claude.home]);
  const codexEnv = await codexBoth(dir, homes, decision, mock.url, { uid, gid });
  const results: BenchResult[] = [];
  try {
    runAgentsAs(user);
    const claudeAdapter = { ...parseAdapterManifest(readFileSync(ADAPTER, 'utf8'), ADAPTER), resolvedCommand: CLI_BINARIES.claude, file: ADAPTER };
    const codexAdapter = {
      ...parseAdapterManifest(readFileSync(CODEX_ADAPTER, 'utf8'), CODEX_ADAPTER),
      resolvedCommand: CLI_BINARIES.codex,
      file: CODEX_ADAPTER,
    };
    for (const [label, adapter, env] of [
      ['the fake CLI', fakeAdapter(), { PATH: process.env.PATH }],
      ['claude, one model call', claudeAdapter, claude.env],
      ['codex, one model call', codexAdapter, codexEnv],
    ] as const) {
      const walled: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        lowerWalls();
        bare.push(await timedTurn(adapter, env, work));
        raiseWalls(decision, { homes, sockets: dir });
        walled.push(await timedTurn(adapter, env, work));
      }
      lowerWalls();
      const added = percentile(walled, 50) - percentile(bare, 50);
      results.push({ suite: 'sandbox', name: `${label}: a turn without walls, p50`, value: Math.round(percentile(bare, 50)), unit: 'ms' });
      results.push({
        suite: 'sandbox',
        name: `${label}: a turn in walls, p50`,
        value: Math.round(percentile(walled, 50)),
        unit: 'ms',
        note: `+${Math.round(added)} ms (target: under 50)`,
      });
    }
    results.push(await proxyHop(dir, mock.url));
  } finally {
    lowerWalls();
    runAgentsAs(undefined);
    await mock.close();
    await claude.cleanup();
  }
  return results;
}

const ADAPTER = fileURLToPath(new URL('../adapters/claude.json', import.meta.url));
const CODEX_ADAPTER = fileURLToPath(new URL('../adapters/codex.json', import.meta.url));

/**
 * Codex's settings where each run finds them: its CODEX_HOME without walls, the bench's home in
 * them (where CODEX_HOME is not); its key and API in the environment, as an operator gives them.
 */
async function codexBoth(
  dir: string,
  homes: string,
  decision: SandboxDecision,
  api: string,
  owner: { uid: number; gid: number },
): Promise<Record<string, string | undefined>> {
  const config = `model = "${CODEX_MODEL}"\nopenai_base_url = "${api}/v1"\ncheck_for_update_on_startup = false\n[analytics]\nenabled = false\n`;
  const outside = join(dir, 'codex-home');
  raiseWalls(decision, { homes, sockets: dir });
  const inside = join(scopeHome('bench')!, '.codex');
  lowerWalls();
  for (const folder of [outside, inside]) {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'config.toml'), config);
  }
  execFileSync('chown', ['-R', `${owner.uid}:${owner.gid}`, outside, dirname(inside)]);
  return { PATH: process.env.PATH, CODEX_HOME: outside, CODEX_API_KEY: 'test', OPENAI_BASE_URL: `${api}/v1` };
}

async function timedTurn(adapter: ReturnType<typeof fakeAdapter>, env: Record<string, string | undefined>, cwd: string): Promise<number> {
  const started = performance.now();
  const outcome = await new Turn({ adapter, spec: { prompt: 'say:hi' }, cwd, env, walls: { home: 'bench' } }).done;
  if (outcome.status !== 'completed') throw new Error(`a turn ${outcome.status}: ${outcome.error ?? ''}`);
  return performance.now() - started;
}

/** A model call's time through the credential proxy's socket, against straight to the API. */
async function proxyHop(dir: string, api: string): Promise<BenchResult> {
  const socket = join(dir, 'model.sock');
  const claude = parseAdapterManifest(readFileSync(ADAPTER, 'utf8'), ADAPTER);
  const server = credentialProxy(socket, heldApi({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: api }, claude.walls.modelApi)!, {
    refused: () => {},
    metered: () => {},
  });
  const target = new URL(api);
  const call = (options: { socketPath: string } | { host: string; port: number }) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = request({ ...options, method: 'GET', path: '/v1/models', headers: { 'x-api-key': 'placeholder' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      });
      req.on('error', reject).end();
    });
  const direct: number[] = [];
  const proxied: number[] = [];
  try {
    for (let i = 0; i < CALLS; i++) {
      direct.push(await call({ host: target.hostname, port: Number(target.port) }));
      proxied.push(await call({ socketPath: socket }));
    }
  } finally {
    server.close();
  }
  const added = percentile(proxied, 50) - percentile(direct, 50);
  return {
    suite: 'sandbox',
    name: 'credential proxy: added to a model call, p50',
    value: Math.round(added * 100) / 100,
    unit: 'ms',
    note: `${CALLS} calls (target: under 2)`,
  };
}
