import type { Settings } from '../config/bridge-manifest.ts';
import type { Log } from '../log/logger.ts';
import type { OrchestrationStore } from '../orchestration/orchestration-store.ts';
import { orchestrationAnnouncements } from '../outbox/orchestration-announcements.ts';
import { Outbox } from '../outbox/outbox.ts';
import { runAnnouncements } from '../outbox/run-announcements.ts';
import type { Outbound } from '../ports/transport.ts';
import type { RunStore } from '../subagents/run-store.ts';
import { orchestrationHandBack, runHandBack, type AgentInbox } from '../tools/agent-inbox.ts';

/** What is owed to the chats (runs' and orchestrations' results), announced once each, and handed back to the agent that asked. */
export function announcements(parts: {
  out: Outbound;
  runStore: RunStore;
  orchestrationStore: OrchestrationStore;
  settings: Pick<Settings, 'answerAsDocumentOverChars' | 'subagents'>;
  agentInbox: AgentInbox;
  log: Log;
}): Outbox {
  const { settings, agentInbox } = parts;
  return new Outbox({
    out: parts.out,
    log: parts.log,
    sources: [
      runAnnouncements({
        store: parts.runStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        retentionMinutes: settings.subagents.retentionMinutes,
        toAgent: (runs) => agentInbox.deliver(runs.map(runHandBack)),
      }),
      orchestrationAnnouncements({
        store: parts.orchestrationStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        toAgent: (records) => agentInbox.deliver(records.map(orchestrationHandBack)),
      }),
    ],
  });
}
