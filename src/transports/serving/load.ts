import { extname } from 'node:path';
import type { TransportKind } from '../../kernel/ports/transport.ts';
import type { KnownTransport } from '../../kernel/known-transports.ts';

/** This file's own extension: `.ts` run from src/, `.js` from the build (scripts/build-server.mjs). */
const CODE = extname(new URL(import.meta.url).pathname);

/** The transport's own code, from its folder: loaded when it is served or checked. */
export async function loadTransport(known: KnownTransport): Promise<TransportKind> {
  // A path made at run time: no part of the bridge depends on a transport's code but through here.
  // (A variable, not a template in the import: a bundler would otherwise pull every transport in.)
  const path = `../../${known.folder}/transport${CODE}`;
  const module = (await import(path)) as { default: TransportKind };
  return module.default;
}
