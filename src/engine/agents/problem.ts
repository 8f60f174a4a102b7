import type { z } from 'zod';
import { describeIssues } from '../../kernel/errors/config-error.ts';
import type { AgentProblem } from './types.ts';

export function formatProblem(problem: AgentProblem): string {
  return problem.field === undefined ? `${problem.file}: ${problem.message}` : `${problem.file}: field "${problem.field}": ${problem.message}`;
}

/**
 * One problem per zod issue. The message comes from `describeIssues`, so an agent problem reads
 * exactly like an adapter manifest error; unknown keys get one problem each, naming the key.
 */
export function issuesToProblems(file: string, issues: readonly z.core.$ZodIssue[], knownFields: readonly string[] = []): AgentProblem[] {
  return issues.flatMap((issue): AgentProblem[] => {
    if (issue.code === 'unrecognized_keys') {
      const message = `unknown field (known: ${knownFields.join(', ')})`;
      return issue.keys.map((key) => ({ file, field: key, message }));
    }
    const field = issue.path.length ? issue.path.join('.') : undefined;
    // describeIssues renders `field "<path>": <message>`; the field is kept apart here.
    const prefix = `field "${field ?? '(top level)'}": `;
    const message = describeIssues([issue]).slice(prefix.length);
    return [field === undefined ? { file, message } : { file, field, message }];
  });
}
