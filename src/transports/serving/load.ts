import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TransportKind } from '../../kernel/ports/transport.ts';
import type { KnownTransport } from '../../kernel/known-transports.ts';
import { REPO_ROOT } from '../../kernel/repo-root.ts';

/** Run from src/ (tests, tsx) or from the build (scripts/build-server.mjs), as this file's extension says. */
const CODE = extname(new URL(import.meta.url).pathname);
const CODE_ROOT = join(REPO_ROOT, CODE === '.ts' ? 'src' : join('dist', 'server'));

/** The transport's own code, from its folder: loaded when it is served or checked. */
export async function loadTransport(known: KnownTransport): Promise<TransportKind> {
  // A path made at run time: no part of the bridge depends on a transport's code but through
  // here. The build makes each `transport.ts` an entry of its own, at the same place under dist/server.
  const path = pathToFileURL(join(CODE_ROOT, known.folder, `transport${CODE}`)).href;
  const module = (await import(path)) as { default: TransportKind };
  return module.default;
}
