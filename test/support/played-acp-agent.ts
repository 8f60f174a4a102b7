import { acpWire } from '../../src/kernel/protocols/acp-wire.ts';
import type { AgentEvent } from '../../src/kernel/protocols/events.ts';
import type { LiveWire, WireSession } from '../../src/kernel/protocols/live-wire.ts';

/** A request the bridge's ACP wire wrote to its agent. */
export interface WrittenRequest {
  id?: unknown;
  method?: string;
}

/** The session the played agent opens. */
export const PLAYED_SESSION = 'played';

/**
 * The bridge's ACP wire on an agent played in this process, no process between them:
 * `initialize` and `session/new` answered as an agent with no capabilities answers them, every
 * other request handed to `written`, every event to `emit`. The caller plays the rest of the
 * agent (its updates, its answer to a prompt) with the wire's `take`.
 */
export function playedAcpWire(
  parts: { emit(event: AgentEvent): void; written?(request: WrittenRequest): void },
  session: WireSession = { cwd: '/', mode: 'bypass' },
): LiveWire {
  const wire: LiveWire = acpWire(
    {
      write: (line) => {
        const request = JSON.parse(line) as WrittenRequest;
        const result =
          request.method === 'initialize'
            ? { protocolVersion: 1, agentCapabilities: {} }
            : request.method === 'session/new'
              ? { sessionId: PLAYED_SESSION }
              : undefined;
        if (result) queueMicrotask(() => wire.take({ jsonrpc: '2.0', id: request.id, result }));
        else parts.written?.(request);
        return true;
      },
      emit: (event) => parts.emit(event),
    },
    session,
  );
  return wire;
}
