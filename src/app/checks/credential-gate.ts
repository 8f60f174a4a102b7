import which from 'which';
import type { Adapter } from '../../engine/adapters/load.ts';
import { checkCredentials } from './cli-checks.ts';
import { problemLine } from './start-checks.ts';

/** Why a turn cannot run on a CLI (it has no credentials), in one line with the fix; undefined: it may run. */
export type CredentialGate = (adapter: Adapter) => Promise<string | undefined>;

/**
 * A chat's first turn on a CLI without credentials, or a run's, is answered in one line before
 * the CLI runs: codex and droid would otherwise wait on their model API for minutes, saying
 * nothing. Asked by the adapter's `doctor.credentials` recipe, as `npm run doctor` and the start
 * ask, so a new CLI needs only its manifest. Only the recipe's own word refuses (a CLI that does
 * not answer may run). A CLI found with credentials is not asked again; one without is asked
 * again at its next turn, as someone may have logged in meanwhile.
 */
export function credentialGate(env: Record<string, string | undefined>): CredentialGate {
  // Each CLI's answer, kept while it is asked and once it has credentials.
  const answers = new Map<string, Promise<string | undefined>>();
  return (adapter) => {
    if (!adapter.doctor.credentials) return Promise.resolve(undefined);
    let answer = answers.get(adapter.name);
    if (!answer) {
      answer = lacking(adapter, env)
        .catch(() => undefined)
        .then((line) => {
          if (line) answers.delete(adapter.name);
          return line;
        });
      answers.set(adapter.name, answer);
    }
    return answer;
  };
}

async function lacking(adapter: Adapter, env: Record<string, string | undefined>): Promise<string | undefined> {
  // A CLI not found: its turn says so, as it would without this.
  const path = await which(adapter.resolvedCommand, { path: env.PATH ?? '', nothrow: true });
  const result = path ? await checkCredentials(adapter, path, env) : undefined;
  return result && !result.ok ? problemLine(adapter.name, [result]) : undefined;
}
