import WebSocket from 'ws';

// Node 20 has no WebSocket or CloseEvent of its own (Node 22 has both), and Mattermost's
// WebSocketClient reads them from the global scope (`WebSocket.OPEN`, `new CloseEvent(…)`)
// besides the socket it is given: `ws` stands in, only where they are missing.

class NodeCloseEvent extends Event {
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;

  constructor(type: string, init: { code?: number; reason?: string; wasClean?: boolean } = {}) {
    super(type);
    this.code = init.code ?? 0;
    this.reason = init.reason ?? '';
    this.wasClean = init.wasClean ?? false;
  }
}

const scope = globalThis as Record<string, unknown>;
scope.WebSocket ??= WebSocket;
scope.CloseEvent ??= NodeCloseEvent;
