import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildArgv, buildLiveArgv } from '../../src/engine/adapters/argv.ts';
import { canRunLive } from '../../src/engine/adapters/live.ts';
import { loadAdapters } from '../../src/engine/adapters/load.ts';
import { loadOperatorClis } from '../../src/engine/adapters/operator-clis.ts';
import { effectiveMode, unsupportedMode } from '../../src/engine/adapters/permissions.ts';
import { TURN_OPTION_NAMES, TURN_OPTIONS, unsupportedOption, type TurnOptions } from '../../src/engine/adapters/turn-options.ts';
import { ConfigError } from '../../src/kernel/errors/config-error.ts';

const REPO_ADAPTERS = fileURLToPath(new URL('../../adapters/', import.meta.url));
const valid = {
  name: 'mycli',
  command: 'mycli',
  protocol: 'claude-stream-json',
  args: ['--json'],
  prompt: ['{prompt}'],
  resume: ['--resume', '{sessionId}'],
};

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'adapters-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

async function load(manifest: unknown, file = 'mycli.json') {
  await writeFile(join(dir, file), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return loadAdapters(dir, {});
}

describe('adapter manifests', () => {
  it('loads the shipped manifests: claude, codex and droid in their dialects, the ACP agents live', async () => {
    const adapters = await loadAdapters(REPO_ADAPTERS, { BRIDGE_GEMINI_COMMAND: '/opt/gemini/bin/gemini' });
    expect([...adapters.keys()]).toEqual(['claude', 'codex', 'copilot', 'droid', 'gemini', 'opencode', 'qwen']);
    expect(adapters.get('codex')!.protocol).toBe('codex-exec-json');
    for (const id of ['copilot', 'gemini', 'opencode', 'qwen']) {
      const agent = adapters.get(id)!;
      expect([agent.protocol, agent.live?.protocol, canRunLive(agent)]).toEqual(['acp', 'acp', true]);
    }
    expect(adapters.get('gemini')!.resolvedCommand).toBe('/opt/gemini/bin/gemini');
    expect(buildLiveArgv(adapters.get('gemini')!, { model: 'gemini-2.5-pro' })).toEqual(['--acp', '--model', 'gemini-2.5-pro']);
    expect(buildLiveArgv(adapters.get('opencode')!, {})).toEqual(['acp']);
  });

  it('has OpenCode ask the bridge before it does anything but read, as every agent does (left to itself, it runs its shell unasked)', async () => {
    const permission = JSON.parse((await loadAdapters(REPO_ADAPTERS, {})).get('opencode')!.env.OPENCODE_PERMISSION ?? '{}') as Record<string, string>;
    expect(permission['*']).toBe('ask');
    const allowed = Object.entries(permission).flatMap(([tool, action]) => (action === 'ask' ? [] : [`${tool}: ${action}`]));
    expect(allowed.sort()).toEqual(['glob', 'grep', 'list', 'lsp', 'read', 'todoread', 'todowrite'].map((tool) => `${tool}: allow`));
  });

  it('takes more ACP agents from clis.json, each id one entry, and stops at a bad one naming it', async () => {
    const shipped = await loadAdapters(REPO_ADAPTERS, {});
    const write = (json: unknown) => writeFile(join(dir, 'clis.json'), JSON.stringify(json));
    await write({ kimi: { command: 'kimi', args: ['--acp'], env: { KIMI_API_KEY: 'k' } } });
    const [kimi] = await loadOperatorClis(dir, shipped, { BRIDGE_KIMI_COMMAND: '/usr/local/bin/kimi' });
    expect([kimi!.name, kimi!.resolvedCommand, kimi!.env, canRunLive(kimi!)]).toEqual(['kimi', '/usr/local/bin/kimi', { KIMI_API_KEY: 'k' }, true]);
    expect(buildLiveArgv(kimi!, {})).toEqual(['--acp']);
    await write({ kimi: { args: ['--acp'] } });
    await expect(loadOperatorClis(dir, shipped, {})).rejects.toThrow(/clis\.json: "kimi": .*command/);
    await write({ gemini: { command: 'gemini' } });
    await expect(loadOperatorClis(dir, shipped, {})).rejects.toThrow(/clis\.json: "gemini": a CLI the bridge ships has that id/);
    await write({ 'Bad Id': { command: 'x' } });
    await expect(loadOperatorClis(dir, shipped, {})).rejects.toThrow(/clis\.json: "Bad Id": /);
    await rm(join(dir, 'clis.json'));
    expect(await loadOperatorClis(dir, shipped, {})).toEqual([]);
  });

  it('a new CLI speaking a known protocol needs only a file', async () => {
    const adapters = await load(valid);
    const argv = buildArgv(adapters.get('mycli')!, { prompt: 'hi', resumeId: 'abc' });
    expect(argv).toEqual(['--json', '--resume', 'abc', 'hi']);
  });

  it('passes a prompt too large for one argument as the adapter says, or refuses it clearly', async () => {
    const big = 'x'.repeat(200_000);
    const plain = (await load(valid)).get('mycli')!;
    expect(() => buildArgv(plain, { prompt: big })).toThrow(
      `mycli cannot take a prompt of 195 KB (no largePrompt in ${join(dir, 'mycli.json')}); the limit is 96 KB`,
    );
    const byFile = (await load({ ...valid, largePrompt: { args: ['-f', '{promptFile}'], via: 'file' } })).get('mycli')!;
    expect(buildArgv(byFile, { prompt: big }, { promptFile: '/tmp/p/prompt.md' })).toEqual(['--json', '-f', '/tmp/p/prompt.md']);
    expect(buildArgv(byFile, { prompt: 'small' })).toEqual(['--json', 'small']);
  });

  it('passes a prompt holding a NUL byte as a large one, since no argument can hold it', async () => {
    const byStdin = (await load({ ...valid, largePrompt: { args: ['-p'], via: 'stdin' } })).get('mycli')!;
    expect(buildArgv(byStdin, { prompt: 'a\0b' })).toEqual(['--json', '-p']);
    const plain = (await load(valid)).get('mycli')!;
    expect(() => buildArgv(plain, { prompt: 'a\0b' })).toThrow(
      `mycli cannot take a prompt holding a NUL byte (no largePrompt in ${join(dir, 'mycli.json')}); send it without one`,
    );
  });

  it('refuses any other value holding a NUL byte, naming it', async () => {
    const plain = (await load({ ...valid, options: { model: ['--model', '{model}'] } })).get('mycli')!;
    expect(() => buildArgv(plain, { prompt: 'hi', model: 'a\0b' })).toThrow('mycli cannot take a model holding a NUL byte');
  });

  it('puts the prompt on the open input, in place of the prompt arguments, for a turn that takes messages while it works', async () => {
    const live = (await load({ ...valid, streamInput: ['-p', '--input-format', 'stream-json'] })).get('mycli')!;
    expect(buildArgv(live, { prompt: 'x'.repeat(200_000), liveInput: true, resumeId: 'abc' })).toEqual([
      '--json',
      '--resume',
      'abc',
      '-p',
      '--input-format',
      'stream-json',
    ]);
    expect(buildArgv(live, { prompt: 'hi' })).toEqual(['--json', 'hi']);
    // A CLI without it takes the prompt as ever.
    expect(buildArgv((await load(valid)).get('mycli')!, { prompt: 'hi', liveInput: true })).toEqual(['--json', 'hi']);
  });

  it('starts a live program with its own arguments and the options whose flags differ there, leaving the session and the mode to its dialect', async () => {
    const live = (
      await load({
        ...valid,
        untrusted: ['--isolated'],
        options: { cwd: ['-C', '{cwd}'], model: ['-m', '{model}'] },
        live: { protocol: 'codex-app-server', args: ['app-server'], options: { cwd: [], model: ['-c', 'model={model|json}'] } },
      })
    ).get('mycli')!;
    expect(buildLiveArgv(live, { cwd: '/work', model: 'o3', resumeId: 'abc' })).toEqual(['app-server', '--isolated', '-c', 'model="o3"']);
    expect(buildLiveArgv(live, { cwd: '/work', trusted: true })).toEqual(['app-server']);
  });

  it('BRIDGE_<NAME>_COMMAND overrides the command', async () => {
    await writeFile(join(dir, 'mycli.json'), JSON.stringify(valid));
    const adapters = await loadAdapters(dir, { BRIDGE_MYCLI_COMMAND: '/opt/mycli' });
    expect(adapters.get('mycli')!.resolvedCommand).toBe('/opt/mycli');
  });

  it.each([
    [{ ...valid, protocol: 'xml-rpc' }, 'field "protocol": Invalid option: expected one of "claude-stream-json"|"codex-exec-json"|"droid-stream-json"'],
    [{ ...valid, args: ['--json', 3] }, 'field "args.1": expected string, received number'],
    [{ ...valid, command: undefined }, 'field "command": missing (expected string)'],
    [{ ...valid, prompt: ['--go'] }, 'field "prompt": must contain {prompt}'],
    [{ ...valid, options: { model: ['--model', '{modle}'] } }, 'field "options.model.1": unknown placeholder {modle}'],
    [{ ...valid, options: { colour: ['x'] } }, 'field "options": Unrecognized key: "colour"'],
    [{ ...valid, tiemout: 3 }, 'field "(top level)": Unrecognized key: "tiemout"'],
    [
      { ...valid, protocol: 'codex-exec-json', streamInput: ['--stdin'] },
      'field "streamInput": the codex-exec-json dialect has no input messages; remove streamInput',
    ],
    [
      { ...valid, live: { protocol: 'codex-exec-json', args: [] } },
      'field "live.protocol": Invalid option: expected one of "claude-stream-json"|"codex-app-server"',
    ],
    [{ ...valid, live: { protocol: 'codex-app-server', args: ['{sesion}'] } }, 'field "live.args.0": unknown placeholder {sesion}'],
    [
      {
        ...valid,
        streamInput: ['--stdin'],
        permissions: { control: ['--stdio'] },
        live: { protocol: 'codex-app-server', args: ['app-server'] },
      },
      'field "live": a CLI stays up one way',
    ],
    // The credential proxy sends on only the calls a CLI makes: each adapter lists them.
    [
      {
        ...valid,
        walls: {
          modelApi: {
            credentials: [{ variable: 'MY_KEY', header: 'x-api-key' }],
            upstream: { default: 'https://api.example.com' },
            pointAt: { env: 'MY_URL' },
          },
        },
      },
      'field "walls.modelApi.routes": list the calls the CLI makes to its model API',
    ],
    [
      {
        ...valid,
        walls: {
          modelApi: {
            ...{ credentials: [{ variable: 'MY_KEY', header: 'x-api-key' }], upstream: { default: 'https://api.example.com' }, pointAt: { env: 'MY_URL' } },
            routes: [],
          },
        },
      },
      'field "walls.modelApi.routes": list the calls the CLI makes',
    ],
    [
      {
        ...valid,
        walls: {
          modelApi: {
            ...{ credentials: [{ variable: 'MY_KEY', header: 'x-api-key' }], upstream: { default: 'https://api.example.com' }, pointAt: { env: 'MY_URL' } },
            routes: ['/v1/messages'],
          },
        },
      },
      'field "walls.modelApi.routes.0": a method and a path',
    ],
    [
      {
        ...valid,
        walls: {
          modelApi: {
            ...{ credentials: [{ variable: 'MY_KEY', header: 'x-api-key' }], upstream: { default: 'https://api.example.com' }, pointAt: { env: 'MY_URL' } },
            routes: ['GET /v1/mod*'],
          },
        },
      },
      'field "walls.modelApi.routes.0": a `*` stands for a whole segment',
    ],
    [
      {
        ...valid,
        walls: {
          modelApi: {
            ...{ credentials: [{ variable: 'MY_KEY', header: 'x-api-key' }], upstream: { default: 'https://api.example.com' }, pointAt: { env: 'MY_URL' } },
            routes: ['POST /v1/../files'],
          },
        },
      },
      'field "walls.modelApi.routes.0": no `.` or `..` segments',
    ],
    [{ ...valid, defaultModel: '' }, 'field "defaultModel": Too small'],
    [{ ...valid, walls: { hosts: ['https://chatgpt.com/'] } }, 'field "walls.hosts.0": a host name'],
    [{ ...valid, provider: 'Anthropic Inc' }, 'field "provider": a GenAI provider name'],
    [{ ...valid, walls: { login: ['../.ssh/id_ed25519'] } }, 'field "walls.login.0": a path staying in the home'],
    [{ ...valid, walls: { givenOnce: ['/etc/passwd'] } }, 'field "walls.givenOnce.0": a path relative to the home'],
    [{ ...valid, savedSessions: 'droid-sessions' }, 'field "savedSessions": Invalid option: expected one of "claude-projects"|"codex-rollouts"'],
  ])('refuses a malformed manifest naming the file and the field (%#)', async (manifest, message) => {
    const error = await load(manifest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(join(dir, 'mycli.json'));
    expect((error as Error).message).toContain(message);
  });

  it('refuses a manifest that is not JSON', async () => {
    await expect(load('{ "name": ')).rejects.toThrow(new RegExp(`${join(dir, 'mycli.json')}: not valid JSON`));
  });

  it('refuses a manifest whose name is not its file name', async () => {
    await expect(load(valid, 'other.json')).rejects.toThrow('field "name": expected "other" (the file\'s name), got "mycli"');
  });

  describe('turn options, declared once in TURN_OPTIONS', () => {
    const sample: Required<TurnOptions> = {
      cwd: '/work',
      model: 'opus',
      systemPrompt: 'Be brief.',
      mcp: { url: 'http://127.0.0.1:1/mcp', serverName: 'bridge', token: 'the-secret', configFile: '/tmp/mcp.json' },
      allowedTools: ['Read', 'Grep'],
      disallowedTools: ['Bash'],
      maxTurns: 5,
      agents: { reviewer: { description: 'Reviews', prompt: 'You review.' } },
    };
    // Each option's template uses every placeholder the option fills, so argv shows them all.
    const declaring = (names: readonly string[]) => ({
      ...valid,
      options: Object.fromEntries(
        names.map((name) => [name, [`--${name}`, ...TURN_OPTIONS[name as keyof typeof TURN_OPTIONS].placeholders.map((p) => `{${p}}`)]]),
      ),
    });

    it('every option in the table is accepted by the schema and adds its flags, in table order', async () => {
      const adapter = (await load(declaring(TURN_OPTION_NAMES))).get('mycli')!;
      const argv = buildArgv(adapter, { ...sample, prompt: 'hi' }, { agentsFile: '/tmp/turn/agents.json' });
      expect(argv.filter((arg) => arg.startsWith('--') && arg !== '--json')).toEqual(TURN_OPTION_NAMES.map((name) => `--${name}`));
      expect(argv).toEqual(
        expect.arrayContaining(['opus', 'Be brief.', 'Read,Grep', 'Bash', '5', '/tmp/mcp.json', 'http://127.0.0.1:1/mcp', 'bridge', '/tmp/turn/agents.json']),
      );
      expect(argv.join(' ')).not.toContain('the-secret'); // the MCP secret is never a placeholder
      expect(argv.at(-1)).toBe('hi');
    });

    it.each(TURN_OPTION_NAMES.filter((name) => name !== 'cwd'))('a CLI without options.%s refuses a turn that asks for it, naming the file', async (name) => {
      const adapter = (await load(declaring(TURN_OPTION_NAMES.filter((other) => other !== name)))).get('mycli')!;
      const message = `mycli does not support ${TURN_OPTIONS[name].describe} (no options.${name} in ${join(dir, 'mycli.json')})`;
      expect(unsupportedOption(adapter, { [name]: sample[name] })).toBe(message);
      expect(() => buildArgv(adapter, { [name]: sample[name], prompt: 'hi' })).toThrow(message);
    });

    it("a CLI without a working-directory flag still runs: the process's own directory is its", async () => {
      const adapter = (await load(valid)).get('mycli')!;
      expect(unsupportedOption(adapter, { cwd: '/work' })).toBeUndefined();
      expect(buildArgv(adapter, { cwd: '/work', prompt: 'hi' })).toEqual(['--json', 'hi']);
    });
  });

  describe('permission modes', () => {
    const modeArgs = async (cli: string, permissions?: 'ask' | 'safe') => {
      const adapter = (await loadAdapters(REPO_ADAPTERS, {})).get(cli)!;
      const mcp = { url: 'http://127.0.0.1:1/mcp', serverName: 'bridge', token: 't', configFile: '/tmp/mcp.json' };
      return buildArgv(adapter, { prompt: 'hi', ...(permissions ? { permissions } : {}), ...(permissions === 'ask' ? { mcp } : {}) });
    };

    it('each shipped CLI bypasses, and has a read-only mode by its own flags', async () => {
      expect(await modeArgs('claude')).toContain('--dangerously-skip-permissions');
      expect(await modeArgs('claude', 'safe')).toEqual(expect.arrayContaining(['--permission-mode', 'dontAsk']));
      expect(await modeArgs('claude', 'safe')).not.toContain('--dangerously-skip-permissions');
      expect((await modeArgs('codex')).join(' ')).toContain('-s workspace-write');
      expect((await modeArgs('codex', 'safe')).join(' ')).toContain('-s read-only');
      expect((await modeArgs('codex', 'safe')).join(' ')).not.toContain('workspace-write');
      expect((await modeArgs('droid')).join(' ')).toContain('--auto high');
      expect(await modeArgs('droid', 'safe')).not.toContain('--auto');
    });

    it('only claude can ask: codex and droid in ask mode run read-only, and their argv cannot ask', async () => {
      const adapters = await loadAdapters(REPO_ADAPTERS, {});
      expect(effectiveMode(adapters.get('claude')!, 'ask')).toBe('ask');
      expect(effectiveMode(adapters.get('codex')!, 'ask')).toBe('safe');
      expect(effectiveMode(adapters.get('droid')!, 'ask')).toBe('safe');
      expect(await modeArgs('claude', 'ask')).toEqual(expect.arrayContaining(['--permission-prompt-tool', 'mcp__bridge__approve_tool']));
      await expect(modeArgs('codex', 'ask')).rejects.toThrow(/codex cannot ask the bridge for permission \(no permissions.prompt in .*codex.json\)/);
    });

    it('a CLI without a read-only mode refuses safe, naming the missing field', async () => {
      const adapter = (await load(valid)).get('mycli')!;
      expect(unsupportedMode(adapter, 'safe')).toBe(`mycli has no read-only mode (no permissions.safe in ${join(dir, 'mycli.json')})`);
      expect(unsupportedMode(adapter, 'ask')).toMatch(/no read-only mode .* and cannot ask the chat/);
      expect(unsupportedMode(adapter, 'bypass')).toBeUndefined();
      expect(() => buildArgv(adapter, { prompt: 'hi', permissions: 'safe' })).toThrow(/no permissions.safe/);
    });
  });
});
