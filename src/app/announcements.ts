import type { Settings } from '../kernel/settings/bridge-manifest.ts';
import type { Log } from '../kernel/log/logger.ts';
import type { OrchestrationStore } from '../work/orchestration/orchestration-store.ts';
import { orchestrationAnnouncements } from '../work/outbox/orchestration-announcements.ts';
import { Outbox } from '../work/outbox/outbox.ts';
import { runAnnouncements } from '../work/outbox/run-announcements.ts';
import type { Outbound } from '../kernel/ports/chat.ts';
import type { RunStore } from '../work/subagents/run-store.ts';
import { orchestrationReport, runReport, type AgentInbox } from '../chat/agent/agent-inbox.ts';

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
        toAgent: (runs) => agentInbox.deliver(runs.map(runReport)),
      }),
      orchestrationAnnouncements({
        store: parts.orchestrationStore,
        documentOverChars: settings.answerAsDocumentOverChars,
        toAgent: (records) => agentInbox.deliver(records.map(orchestrationReport)),
      }),
    ],
  });
}
