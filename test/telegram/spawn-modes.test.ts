import { status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent__Output } from '../../src/surfaces/api/generated/jsonl_bridge/v1/AgentEvent.ts';
import { apiClient, type ApiClient } from '../support/api-client.ts';
import { FAKE_AGENT } from '../support/fake-cli.ts';
import { OWNER, ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A chat's permission mode binds every run spawned there, whoever spawns it: /spawn, a plan,
// the API. `ask` asks the chat (read-only on a CLI that cannot ask); `safe` only reads.
const TOKEN = 'ops-token-0123456789abcdef';
const ASK_CHAT = -1800;
const SAFE_CHAT = -1801;
let world: TelegramWorld;
let api: ApiClient;

beforeAll(async () => {
  // codex is the fake CLI too: the real one, with no credentials, would be refused before it starts.
  world = await startTelegramWorld({
    BRIDGE_CODEX_COMMAND: FAKE_AGENT,
    BRIDGE_API_ADDR: '127.0.0.1:0',
    BRIDGE_API_TOKENS: `ops=${TOKEN}`,
    BRIDGE_API_SCOPES: 'ops=*',
  });
  await world.bridge.waitForLog(/SubagentService listening on/);
  api = apiClient(/SubagentService listening on (\S+),/.exec(world.bridge.log())![1]!, TOKEN);
  ask.say('/permissions ask');
  await ask.waitText(/^🔐 Permissions: ask/);
  safe.say('/permissions safe');
  await safe.waitText(/^🔐 Permissions: safe[^]*Runs spawned here \(\/spawn, plans, the API\) only read too; no option lifts that\./);
});
afterAll(async () => {
  api?.close();
  await world?.stop();
});

const ask = ownerIn(() => world, ASK_CHAT);
const safe = ownerIn(() => world, SAFE_CHAT);
const argvOf = async (prompt: string) => (await world.cli.invocations()).find((c) => c.prompt.includes(prompt))!.argv;
const askFlags = (argv: string[]) => argv.slice(argv.indexOf('--permission-prompt-tool'), argv.indexOf('--permission-prompt-tool') + 2);
const readOnly = (argv: string[]) => {
  expect(argv.join(' ')).toContain('--permission-mode dontAsk');
  expect(argv).not.toContain('--dangerously-skip-permissions');
  expect(argv).not.toContain('--permission-prompt-tool');
  expect(argv).not.toContain('--allowedTools');
  expect(argv).not.toContain('--tools');
  expect(argv).not.toContain('--mcp-config'); // no bridge tools: a run it started could do more than it
};
const spawnByApi = async (chatId: number, request: object) => {
  const { subagentId } = await api.call<{ subagentId: string }>('SpawnSubagent', { chat: { chatId }, ...request });
  return (await api.stream<AgentEvent__Output>('WatchSubagent', { subagentId })).at(-1)!.ended!.run!;
};
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: ServiceError) => ({ code: e.code, details: e.details }),
  );

describe('a chat in ask mode', () => {
  it('/spawn asks the chat, says so, and --auto-approve with --allow works as before', async () => {
    ask.say('/spawn --label Asker "say:asked-run"');
    expect((await ask.waitText(/^🚀 #\d+ started: Asker/)).text).toContain('🙋 Ask mode: tools that need permission are asked here.');
    await ask.waitText(/^✅ #\d+ Asker/);
    const argv = await argvOf('say:asked-run');
    // A run in the bridge's own process asks on Claude Code's control channel (a worker's, through the MCP tool).
    expect(askFlags(argv)).toEqual(['--permission-prompt-tool', 'stdio']);
    expect(argv).not.toContain('--dangerously-skip-permissions');

    ask.say('/spawn --label Auto --auto-approve --allow "Bash(echo:*)" "say:auto-run"');
    await ask.waitText(/^✅ #\d+ Auto/);
    const auto = await argvOf('say:auto-run');
    expect(askFlags(auto)).toEqual(['--permission-prompt-tool', 'stdio']);
    expect(auto.slice(auto.indexOf('--tools'), auto.indexOf('--tools') + 2)).toEqual(['--tools', 'Bash']);
  });

  it("a run's tool call is asked with Allow / Deny, and its agent's question comes as buttons", async () => {
    ask.say('/spawn --label Tooly "tools:1 asked-tool"');
    const asked = await ask.waitText(/^🔐 #\d+ Tooly asks to use Bash/);
    world.telegram.pressButton({
      chatId: ASK_CHAT,
      messageId: asked.messageId,
      data: (asked.buttons[0] as { callback_data: string }).callback_data,
      userId: OWNER,
    });
    expect((await ask.waitText(/^✅ #\d+ Tooly/)).text).not.toContain('denied');

    ask.say('/spawn --label Curious "question asked-run"');
    const question = await ask.waitText(/^❓ Color\nWhich color\?/);
    const blue = (question.buttons as { text: string; callback_data: string }[]).find((b) => b.text === 'Blue')!;
    world.telegram.pressButton({ chatId: ASK_CHAT, messageId: question.messageId, data: blue.callback_data, userId: OWNER });
    expect((await ask.waitText(/^✅ #\d+ Curious/)).text).toContain('answered: Blue');
  });

  it('a CLI that cannot ask runs read-only there', async () => {
    ask.say('/spawn --cli codex --label Codex "say:codex-run"');
    const started = await ask.waitText(/^🚀 #(\d+) started: Codex · codex/);
    expect(started.text).toContain('🔒 Safe mode: it only reads.');
    const number = /#(\d+)/.exec(started.text!)![1];
    // Its record carries the read-only policy its CLI's flags come from (codex: -s read-only).
    ask.say(`/subagents info ${number}`);
    const info = await ask.waitText(new RegExp(`^#${number} Codex\\n`));
    expect(info.text).toMatch(/^(\S+\.)?readOnly: true$/m);
    expect(info.text).toMatch(/^chatMode: safe$/m);
    ask.say('/subagents stop all');
    await ask.waitText(/^⏹ Stopped|^No subagent is running/);
  });

  it('an API run there asks the chat too', async () => {
    const run = await spawnByApi(ASK_CHAT, { prompt: 'say:api-asked' });
    expect(run.status).toBe('SUBAGENT_STATUS_COMPLETED');
    expect(askFlags(await argvOf('say:api-asked'))).toEqual(['--permission-prompt-tool', 'stdio']);
  });
});

describe('a chat in safe mode', () => {
  it('/spawn runs read-only, says so, and no option lifts it', async () => {
    safe.say('/spawn --label Reader "say:safe-run"');
    expect((await safe.waitText(/^🚀 #\d+ started: Reader/)).text).toContain('🔒 Safe mode: it only reads.');
    await safe.waitText(/^✅ #\d+ Reader/);
    readOnly(await argvOf('say:safe-run'));

    for (const [options, named] of [
      ['--auto-approve --allow Bash', '--auto-approve, --allow'],
      ['--ask', '--ask'],
      ['--allow Bash', '--allow'],
    ]) {
      safe.say(`/spawn ${options} "say:lifted"`);
      await safe.waitText(
        new RegExp(`This chat is in safe mode: its runs only read, and ${named} cannot change that\\. /permissions changes the chat's mode\\.`),
      );
    }
    expect((await world.cli.invocations()).some((c) => c.prompt.includes('say:lifted'))).toBe(false);
  });

  it('an API run there is read-only too, and its request cannot lift it', async () => {
    const run = await spawnByApi(SAFE_CHAT, { prompt: 'say:api-safe' });
    expect(run.status).toBe('SUBAGENT_STATUS_COMPLETED');
    readOnly(await argvOf('say:api-safe'));
    expect(
      await refusal(api.call('SpawnSubagent', { chat: { chatId: SAFE_CHAT }, prompt: 'say:api-lifted', allowedTools: ['Bash'], autoApprovePermissions: true })),
    ).toEqual({
      code: status.INVALID_ARGUMENT,
      details: "This chat is in safe mode: its runs only read, and --auto-approve, --allow cannot change that. /permissions changes the chat's mode.",
    });
    expect(
      await refusal(
        api.call('CreateOrchestration', {
          chat: { chatId: SAFE_CHAT },
          steps: [{ id: 'a', prompt: 'say:plan-lifted', allowedTools: ['Bash'], autoApprovePermissions: true }],
        }),
      ),
    ).toMatchObject({ code: status.INVALID_ARGUMENT, details: expect.stringContaining('This chat is in safe mode') });
  });

  it('a plan’s steps run read-only there', async () => {
    safe.say('/orchestrate {"name": "Look", "steps": [{"id": "look", "prompt": "say:plan-safe"}]}');
    await safe.waitText(/^✅ Look \(orchestration #1\)/);
    readOnly(await argvOf('say:plan-safe'));
  });
});

it('the owner chat stays as it was: bypass', async () => {
  const owner = ownerIn(() => world, OWNER);
  owner.say('/spawn "say:bypass-run"');
  expect((await owner.waitText(/^🚀 #1 started/)).text).toContain('Bypass mode: tools run without asking.');
  await owner.waitText(/^✅ #\d+/);
  expect(await argvOf('say:bypass-run')).toContain('--dangerously-skip-permissions');
  // --ask in a bypass chat: the run asks, and its answer says so, not "bypass".
  owner.say('/spawn --ask "say:asking-run"');
  const asking = (await owner.waitText(/^🚀 #2 started/)).text;
  expect(asking).toContain('🙋 Ask mode: tools that need permission are asked here.');
  expect(asking).not.toContain('Bypass mode');
});
