import { Bridge } from './bridge/bridge.ts';
import { installSubagentCommands } from './bridge/commands/subagents.ts';
import type { Outbound } from './chat/transport.ts';
import type { BridgeConfig } from './config/config.ts';
import type { ChatStore } from './store/chat-store.ts';
import { Subagents } from './subagents/subagents.ts';
import { BridgeTools } from './tools/bridge-tools.ts';
import { orchestrationResultTurn } from './tools/agent-inbox.ts';
import { installOrchestrationCommands } from './bridge/commands/orchestrate.ts';
import { OrchestrationStore } from './orchestration/orchestration-store.ts';
import { orchestrationAddress } from './orchestration/orchestration-record.ts';
import { Orchestrator } from './orchestration/orchestrator.ts';

export interface App {
  bridge: Bridge;
  subagents: Subagents;
  orchestrator: Orchestrator;
  tools: BridgeTools;
  /** Tells chats about messages a previous bridge left unanswered, recovers subagents, starts the sweeper. */
  start(): Promise<void>;
  /** Resolves when nothing is running: no turn, no subagent, no orchestration (the console at the end of its input). */
  idle(): Promise<void>;
  /** Stops every CLI cleanly and saves state. */
  shutdown(): Promise<void>;
}

/** Every part of the bridge over one transport's Outbound: what `main.ts`, the console and the benchmarks run. */
export async function createApp(options: { config: BridgeConfig; store: ChatStore; out: Outbound; trustEveryone?: boolean; log: (line: string) => void }): Promise<App> {
  const { config, store, out, log } = options;
  const bridge = new Bridge({ config, store, out, trustEveryone: options.trustEveryone ?? false, log });
  const subagents = await Subagents.open(config, out, log);
  const orchestrator = new Orchestrator({
    config,
    store: await OrchestrationStore.open(config.dataDir),
    subagents,
    out,
    log,
    workdirOf: (address) => bridge.chats.get(address).record.workdir,
    // An orchestration the main agent started reports back to it, as its subagents do.
    onFinished: (orchestration) => {
      if (orchestration.requester.kind !== 'agent' || config.settings.subagents.announceTo === 'chat') return;
      const chat = bridge.chats.get(orchestrationAddress(orchestration));
      void bridge.startTurn(chat, { text: orchestrationResultTurn(orchestration) });
    },
  });
  installOrchestrationCommands(bridge, orchestrator);
  installSubagentCommands(bridge, subagents);
  const tools = await BridgeTools.start(config, bridge, subagents, orchestrator);
  return {
    bridge,
    subagents,
    orchestrator,
    tools,
    async start() {
      await bridge.reportInterrupted();
      const recovered = await subagents.start();
      if (recovered.interrupted || recovered.requeued) log(`recovered subagents: ${recovered.interrupted} interrupted, ${recovered.requeued} queued again`);
      await orchestrator.start();
    },
    async idle() {
      // A finished run can start a new main turn (its result handed back), so settle until all is still.
      for (;;) {
        await bridge.idle();
        await subagents.idle();
        await new Promise((resolve) => setTimeout(resolve, 1500)); // the agent inbox gathers results this long
        if (bridge.isIdle() && subagents.isIdle() && !orchestrator.anyRunning()) return;
      }
    },
    // Subagents first, so no queued run starts in a slot a stopping turn frees.
    async shutdown() {
      await subagents.shutdown();
      await bridge.shutdown();
      await tools.close();
    },
  };
}
