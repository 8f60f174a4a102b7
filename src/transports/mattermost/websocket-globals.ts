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

/**
 * A socket to the server. The token goes in the client's authentication challenge alone, not
 * in the request's headers: the client prints a failed socket's event to the console, request
 * and all.
 */
export function socketTo(url: string): WebSocket {
  return new WebSocket(url);
}
