import type { McpAccess } from '../../engine/adapters/turn-options.ts';
import type { PermissionRequest } from '../../engine/session/live-cli.ts';
import type { AgentSession } from '../../engine/session/session.ts';
import type { PermissionDecision } from '../../kernel/protocols/events.ts';
import type { SessionStreamWriter } from './session-stream.ts';
import type { SessionEvent } from './session-protocol.ts';

/** A session a worker holds (a run's, or a chat's), in one placement: what SessionHost keeps of it. */
export interface Hosted {
  sessionKey: string;
  attempt: number;
  /** The number of the last state copied back in this placement. */
  states: number;
  events: SessionStreamWriter;
  /** The CLI session here, and what its command line depends on (another needs a new one). */
  session?: { agent: AgentSession; key: string };
  /** The MCP config file written for its CLI, and the secret in it. */
  tools?: McpAccess;
  /** The turn at work here, by the id the bridge knows it by. */
  turn?: { id: string };
  /** The last turn sent here, and how it ended once it did: what a restarted bridge follows again (see attach). */
  last?: { id: string; ending?: Extract<SessionEvent, { kind: 'done' | 'failed' }> };
  /** Permission requests waiting for the bridge's answer, by request id: what was asked, and its answer's taker. */
  decisions: Map<string, { request: PermissionRequest; decide: (decision: PermissionDecision) => void }>;
  /** Asks are acted on one at a time, in order. */
  queue: Promise<void>;
  /** The chat's own hosts (`/net`), as its last turn's launch said: what its walls let through here. */
  netAllow?: string[];
  /** What it is, for the log (see SessionLaunch.what). */
  what: string;
  /** Why the turn at work is being given back (the drain's deadline came): it ends, its state is copied back, and the bridge sends it elsewhere. */
  givingBack?: string;
}
