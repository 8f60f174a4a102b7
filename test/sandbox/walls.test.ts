import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Turn } from '../../src/engine/session/turn.ts';
import { runAgentsAs } from '../../src/engine/process/agent-user.ts';
import { decideSandbox, type SandboxDecision } from '../../src/engine/sandbox/sandbox-decision.ts';
import { parseHostRule } from '../../src/engine/sandbox/host-rules.ts';
import { lowerWalls, raiseWalls, scopeHome } from '../../src/engine/sandbox/walls.ts';
import { fakeAdapter } from '../support/fake-cli.ts';
import { tempDir } from '../support/bridge-process.ts';
import { agentIds, AGENT_USER, cannotSwitchUser } from '../support/agent-user.ts';
import { listen, type RunningServer } from '../support/loopback-server.ts';
import { cannotWall, type Escape } from './walls-support.ts';

const cannot = cannotSwitchUser() ?? cannotWall();
/** A CLI the bridge drives besides the one in these walls, declared by its adapter alone. */
const OTHER_CLI = {
  modelApi: {
    credentials: [{ variable: 'MYCLI_API_KEY', header: 'authorization', scheme: 'Bearer' }],
    upstream: { default: 'https://api.mycli.example' },
    pointAt: { env: 'MYCLI_BASE_URL' },
    routes: ['POST /v1/chat'],
  },
};

describe.skipIf(cannot)(`a CLI in its walls (${cannot ?? 'bubblewrap as ' + AGENT_USER})`, () => {
  let space: Awaited<ReturnType<typeof tempDir>>;
  let botApi: RunningServer;
  let dataDir: string;
  let work: string;
  let decision: SandboxDecision;
  let homes: string;

  beforeAll(async () => {
    const { uid, gid } = agentIds()!;
    const user = { name: AGENT_USER, uid, gid, home: `/home/${AGENT_USER}` };
    runAgentsAs(user);
    decision = await decideSandbox({ setting: 'bwrap', allow: [] }, user);
    space = await tempDir('walls-');
    await chmod(space.path, 0o711);
    homes = join(space.path, 'homes');
    await mkdir(homes, { mode: 0o700 });
    await chown(homes, uid, gid);
    raiseWalls(decision, { homes, sockets: space.path, adapters: [{ walls: OTHER_CLI }] });
    // The bridge's data directory: root's alone, as it is made.
    dataDir = join(space.path, 'data');
    await mkdir(dataDir, { mode: 0o700 });
    await writeFile(join(dataDir, 'secrets.json'), '{"token":"bot"}');
    // The project, the agent's to write in.
    work = join(space.path, 'work');
    await mkdir(work, { mode: 0o700 });
    await chown(work, uid, gid);
    botApi = await listen((_req, res) => res.end('bot api'));
  });

  afterAll(async () => {
    lowerWalls();
    runAgentsAs(undefined);
    await botApi?.close();
    await space?.remove();
  });

  async function escape(home: string, extra: Record<string, string> = {}, blocked: string[] = []): Promise<Escape> {
    const turn = new Turn(
      {
        adapter: fakeAdapter(),
        spec: { prompt: 'escape' },
        cwd: work,
        env: { PATH: process.env.PATH, FAKE_ESCAPE_PID: String(process.pid), ...extra },
        walls: { home },
        graceMs: 500,
      },
      { onEvent: (event) => event.type === 'blocked' && blocked.push(`${event.host}: ${event.why}`) },
    );
    const outcome = await turn.done;
    expect(outcome.status, `${outcome.error ?? ''}`).toBe('completed');
    return JSON.parse(outcome.text) as Escape;
  }

  it('cannot read the data directory, another chat’s home or the bridge’s environment, nor write outside its directory or home', async () => {
    const other = scopeHome('telegram:2')!;
    await escape('telegram:2', { FAKE_ESCAPE_WRITE: '/home/jsonl-agent/notes.md' }); // the other chat wrote in its home
    const seen = await escape('telegram:1', {
      FAKE_ESCAPE_READ: [dataDir, other, '/root', '/home/jsonl-agent'].join(','),
      FAKE_ESCAPE_WRITE: [join(work, 'made.txt'), join(space.path, 'planted.txt'), '/usr/planted', '/home/jsonl-agent/own.txt'].join(','),
    });
    expect(seen.read[dataDir]).toMatch(/^refused: ENOENT/);
    expect(seen.read[other]).toMatch(/^refused: ENOENT/);
    expect(seen.read['/root']).toMatch(/^refused: ENOENT/);
    // Its own home holds its own files only: not the other chat's notes.
    expect(seen.read['/home/jsonl-agent']).not.toContain('notes.md');
    expect(seen.write[join(work, 'made.txt')]).toBe('ok: ');
    // Outside its directory, what it writes stays in its own /tmp: nothing reaches the host.
    expect(existsSync(join(space.path, 'planted.txt'))).toBe(false);
    expect(existsSync(join(work, 'made.txt'))).toBe(true);
    expect(seen.write['/usr/planted']).toMatch(/^refused: (EROFS|EACCES)/);
    expect(seen.write['/home/jsonl-agent/own.txt']).toBe('ok: ');
    // No other process than its own: not the bridge's, whose environment holds the secrets.
    expect(seen.environ).toMatch(/^refused/);
    expect(seen.pids).toBeLessThan(10);
  });

  it('holds a placeholder for the model API key, whose API it reaches through the bridge with the real key', async () => {
    const keys: (string | undefined)[] = [];
    const modelApi = await listen((req, res) => {
      keys.push(req.headers['x-api-key'] as string | undefined);
      res.end('{"data":[]}');
    });
    try {
      // Another CLI's key, known from its adapter alone, never reaches this one's walls.
      const seen = await escape('telegram:1', {
        ANTHROPIC_API_KEY: 'sk-ant-real-secret',
        ANTHROPIC_BASE_URL: `${modelApi.origin}/`,
        MYCLI_API_KEY: 'my-real-key',
      });
      expect(seen.keys).toEqual(['ANTHROPIC_API_KEY=sk-held-by-the-bridge']);
      expect(JSON.stringify(seen)).not.toContain('sk-ant-real-secret');
      expect(seen.model).toBe('ok: status 200');
      expect(keys).toEqual(['sk-ant-real-secret']);
    } finally {
      await modelApi.close();
    }
  });

  it('reaches nothing on the host’s loopback, the chat app’s API included, nor a host nobody allowed: each refusal said once', async () => {
    const urls = [`${botApi.origin}/getMe`, 'http://example.com/', 'http://example.com/again'];
    const blocked: string[] = [];
    const seen = await escape('telegram:1', { FAKE_ESCAPE_URLS: urls.join(',') }, blocked);
    for (const url of urls) {
      expect(seen.direct[url]).toMatch(/^refused: (ECONNREFUSED|EAI_AGAIN|ENOTFOUND)/); // no network but its own loopback, no DNS
      expect(seen.proxied[url]).toBe('refused: status 403');
    }
    expect(blocked).toEqual(['127.0.0.1: not on the list', 'example.com: not on the list']);
  });

  it('reaches a host named in BRIDGE_SANDBOX_ALLOW through the proxy; one on the loopback only where its address is named, on that port', async () => {
    const allowed = await listen((_req, res) => res.end('allowed'));
    const port = new URL(allowed.origin).port;
    const byName = `http://localhost:${port}/pkg`;
    const byAddress = `http://127.0.0.1:${port}/pkg`;
    const urls = [byName, byAddress, `${botApi.origin}/getMe`].join(',');
    try {
      // A name is no naming of the address it resolves to: localhost is refused.
      raiseWalls(decision, { homes, sockets: space.path, allow: [parseHostRule(`localhost:${port}`, 'BRIDGE_SANDBOX_ALLOW')] });
      const blocked: string[] = [];
      const refused = await escape('telegram:1', { FAKE_ESCAPE_URLS: urls }, blocked);
      expect(refused.proxied[byName]).toBe('refused: status 403');
      expect(blocked[0]).toMatch(/^localhost: it resolves to an internal address \((127\.0\.0\.1|::1)\), which only the operator opens/);
      // Its address named, it is reached, by name or address; the same host's other ports are not.
      raiseWalls(decision, {
        homes,
        sockets: space.path,
        allow: [parseHostRule(`localhost:${port}`, 'BRIDGE_SANDBOX_ALLOW'), parseHostRule(`127.0.0.1:${port}`, 'BRIDGE_SANDBOX_ALLOW')],
      });
      const seen = await escape('telegram:1', { FAKE_ESCAPE_URLS: urls });
      expect(seen.proxied[byName]).toBe('ok: status 200');
      expect(seen.proxied[byAddress]).toBe('ok: status 200');
      expect(seen.direct[byAddress]).toMatch(/^refused: ECONNREFUSED/);
      expect(seen.proxied[`${botApi.origin}/getMe`]).toBe('refused: status 403'); // another port of the same host
    } finally {
      raiseWalls(decision, { homes, sockets: space.path });
      await allowed.close();
    }
  });

  it('holds a connection to a host not on the list while a person is asked about it at its address, and withdraws the question once the connection closes', async () => {
    const asked: string[] = [];
    const withdrawn: string[] = [];
    // A name that resolves here with no DNS, at an address the operator opened (a name is resolved before a person is asked).
    const port = new URL(botApi.origin).port;
    raiseWalls(decision, { homes, sockets: space.path, internal: [parseHostRule(`127.0.0.1:${port}`, 'BRIDGE_SANDBOX_INTERNAL')] });
    const url = `http://localhost:${port}/`;
    const turn = new Turn({
      adapter: fakeAdapter(),
      spec: { prompt: 'escape' },
      cwd: work,
      env: { PATH: process.env.PATH, FAKE_ESCAPE_URLS: url },
      walls: {
        home: 'telegram:1',
        egress: {
          // Nobody answers: the fake CLI's own timeout (3 s) closes the connection first.
          ask: (host, port) => (address, gone) => {
            asked.push(`${host}:${port} at ${address}`);
            return new Promise((resolve) =>
              gone.addEventListener('abort', () => {
                withdrawn.push(`${host}:${port}`);
                resolve({ allowed: false, why: 'its connection closed before an answer' });
              }),
            );
          },
        },
      },
      graceMs: 500,
    });
    const outcome = await turn.done;
    raiseWalls(decision, { homes, sockets: space.path });
    expect(outcome.status, `${outcome.error ?? ''}`).toBe('completed');
    expect((JSON.parse(outcome.text) as Escape).proxied[url]).toBe('refused: timeout');
    expect(asked).toEqual([`localhost:${port} at 127.0.0.1`]);
    // The proxy hears the connection close on its side of the walls' relay, which may come after the CLI's exit ended the turn.
    await expect.poll(() => withdrawn).toEqual([`localhost:${port}`]);
  });

  it('is stopped whole: a stop ends the CLI and what it started inside, and its sockets go', async () => {
    const turn = new Turn({
      adapter: fakeAdapter(),
      spec: { prompt: 'grandchild hang' },
      cwd: work,
      env: { PATH: process.env.PATH },
      walls: { home: 'telegram:1' },
      graceMs: 500,
    });
    const sockets = () => readdirSync(space.path).filter((name) => name.startsWith('jsonl-bridge-walls-'));
    await expect.poll(sockets).toHaveLength(1);
    // What runs inside is in the group bwrap leads: the grandchild the CLI started included.
    const group = String(turn.pid);
    const left = () =>
      execFileSync('ps', ['-e', '-o', 'pgid=,stat=,pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter(([pgid, stat]) => pgid === group && !stat!.startsWith('Z')); // a zombie holds nothing, and is reaped by whoever inherited it
    await expect.poll(() => left().some((fields) => fields.slice(3).join(' ') === 'sleep 600')).toBe(true);
    await turn.stop('enough');
    expect((await turn.done).status).toBe('stopped');
    expect(sockets()).toEqual([]);
    // Nothing of it is left on the host.
    await expect.poll(left).toEqual([]);
  });
});
