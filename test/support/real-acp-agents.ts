import { CLI_BINARIES, prepareCliEnv, type CliEnv, type CliName } from './cli-env.ts';
import { startMockModel, type MockModel, type ModelRequest, type Reply, type Script, type ToolCall } from './mock-model/index.ts';
import { startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

/**
 * A real ACP agent the suite runs against the mock model: how a chat names it, how its model
 * asks for a shell command, and what its own side calls (a router, a next-speaker check) want.
 */
export interface RealAcpAgent {
  /** The CLI's id in chats (`/cli`, `/spawn --cli`). */
  id: string;
  cli: CliName;
  /** Its model's call of its shell tool for `command`. */
  shell(command: string): ToolCall;
  /** The answer to a call of the agent's own (not the chat's turn), or undefined for a turn's. */
  aside(request: ModelRequest): Reply | undefined;
  /** The variable holding its model API key, which walls hide from its tools. */
  keyVariable: string;
  /** Its shell tool runs without that variable at all (Copilot takes it out): a command prints no key, not even the walls' placeholder. */
  toolsLackKey?: true;
  /**
   * Answers the first prompt after a Stop with the stopped turn's end, empty (claude-agent-acp
   * 0.23.1: the interrupted query's result ends the next prompt; its answer comes after, unread).
   */
  emptyAfterStop?: boolean;
  /** Declared by the operator's clis.json rather than shipped: its entry, given its environment. */
  operatorEntry?: (env: Record<string, string>) => { env: Record<string, string> } & Record<string, unknown>;
}

/** Gemini CLI's own JSON calls (its model router, its next-speaker check) ask for JSON: one answer fits both. */
const geminiAside = (request: ModelRequest): Reply | undefined =>
  JSON.stringify(request.rawBody.generationConfig ?? {}).includes('application/json')
    ? { text: '{"reasoning": "simple", "model_choice": "flash", "next_speaker": "user"}' }
    : undefined;

/** The variables Claude Code over ACP is pointed at the mock with: in its clis.json entry, as an operator writes them. */
const CLAUDE_VARIABLES = /^(ANTHROPIC_|CLAUDE_CODE_|DISABLE_|ENABLE_TOOL_SEARCH$|IS_SANDBOX$)/;

export const REAL_ACP_AGENTS: readonly RealAcpAgent[] = [
  {
    id: 'gemini',
    cli: 'gemini',
    shell: (command) => ({ name: 'run_shell_command', input: { command, description: 'run it' } }),
    aside: geminiAside,
    keyVariable: 'GEMINI_API_KEY',
  },
  {
    id: 'qwen',
    cli: 'qwen',
    shell: (command) => ({ name: 'run_shell_command', input: { command, description: 'run it', is_background: false } }),
    aside: () => undefined,
    keyVariable: 'OPENAI_API_KEY',
  },
  {
    id: 'copilot',
    cli: 'copilot',
    shell: (command) => ({ name: 'bash', input: { command, description: 'run it' } }),
    aside: () => undefined,
    keyVariable: 'COPILOT_PROVIDER_API_KEY',
    toolsLackKey: true,
  },
  {
    id: 'claude-acp',
    cli: 'claude-acp',
    shell: (command) => ({ name: 'Bash', input: { command, description: 'run it' } }),
    aside: () => undefined,
    keyVariable: 'ANTHROPIC_API_KEY',
    emptyAfterStop: true,
    operatorEntry: (env) => ({
      command: CLI_BINARIES['claude-acp'],
      args: [],
      env: Object.fromEntries(Object.entries(env).filter(([name]) => CLAUDE_VARIABLES.test(name))),
      // In walls its key stays with the credential proxy, as Claude Code's own manifest says.
      walls: {
        modelApi: {
          credentials: [{ variable: 'ANTHROPIC_API_KEY', header: 'x-api-key' }],
          upstream: { variable: 'ANTHROPIC_BASE_URL', default: 'https://api.anthropic.com' },
          pointAt: { env: 'ANTHROPIC_BASE_URL' },
          routes: ['POST /v1/messages', 'POST /v1/messages/count_tokens', 'HEAD /', 'GET /v1/models', 'GET /v1/models/*'],
        },
      },
    }),
  },
];

export interface RealAcpWorld {
  mock: MockModel;
  cliEnv: CliEnv;
  world: TelegramWorld;
  /** Sets the script for the chat's turns; the agent's own calls are answered as it expects. */
  script(turns: Script): void;
  stop(): Promise<void>;
}

/**
 * The bridge as a process whose default CLI is the real `agent`, against the fake Bot API and
 * the mock model; `command` puts something of the caller's in front of the agent's binary (the
 * bench's stdio tap), given the binary's path.
 */
export async function startRealAcpWorld(
  agent: RealAcpAgent,
  extraEnv: Record<string, string> = {},
  { command = (binary: string) => binary }: { command?: (binary: string) => string } = {},
): Promise<RealAcpWorld> {
  const mock = await startMockModel();
  const cliEnv = await prepareCliEnv(agent.cli, mock.url);
  const all = { ...cliEnv.env, BRIDGE_DEFAULT_CLI: agent.id, BRIDGE_WORKDIR: cliEnv.workdir, ...extraEnv };
  // An operator's agent has its variables in its entry, none in the bridge's own.
  const entry = agent.operatorEntry?.(all);
  const env = entry
    ? Object.fromEntries(Object.entries(all).filter(([name]) => !(name in entry.env)))
    : { ...all, [`BRIDGE_${agent.id.toUpperCase()}_COMMAND`]: command(CLI_BINARIES[agent.cli]) };
  const clis = entry && { [agent.id]: { ...entry, command: command(String(entry.command)) } };
  const world = await startTelegramWorld(env, clis ? { dataFiles: { 'clis.json': JSON.stringify(clis) } } : {});
  return {
    mock,
    cliEnv,
    world,
    script(turns) {
      mock.reset((request) => agent.aside(request) ?? turns(request));
    },
    async stop() {
      await world.stop();
      await mock.close();
      await cliEnv.cleanup();
    },
  };
}
