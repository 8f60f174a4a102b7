import type { TransportKind } from '../ports/chat-transport.ts';
import type { KnownTransport } from '../transports/index.ts';

/** The transport's own code, from its folder: loaded when it is served or checked. */
export async function loadTransport(known: KnownTransport): Promise<TransportKind> {
  // A path made at run time: no part of the bridge depends on a transport's code but through here.
  const folder: string = known.id;
  const module = (await import(`../${folder}/transport.ts`)) as { default: TransportKind };
  return module.default;
}
