/**
 * Whom an "Allow <tool> for this …" press covers. On a chat's main session: the person who
 * typed the turn that asked, under the chat's settings as they were (`settings`: a key that
 * changes with the chat's mode, directory, CLI, model and session). On a run: the run itself
 * (`person` and `settings` empty), which ends with it.
 */
export interface GrantHolder {
  person: string;
  settings: string;
}

/** The holder of a run's grants: the run as a whole. */
export const WHOLE_RUN: GrantHolder = { person: '', settings: '' };

export function sameHolder(a: GrantHolder | undefined, b: GrantHolder | undefined): boolean {
  return a !== undefined && b !== undefined && a.person === b.person && a.settings === b.settings;
}

/**
 * The tools allowed "for this session" (or run), per asker: each for one holder. A grant given
 * under other settings than the asker's now is never used, and is dropped when the next one is
 * given; none is kept across a restart.
 */
export class SessionGrants {
  private readonly byAsker = new Map<string, { settings: string; tools: Map<string, Set<string>> }>();

  allows(askerId: string, holder: GrantHolder, tool: string): boolean {
    const kept = this.byAsker.get(askerId);
    return kept?.settings === holder.settings && (kept.tools.get(holder.person)?.has(tool) ?? false);
  }

  add(askerId: string, holder: GrantHolder, tool: string): void {
    let kept = this.byAsker.get(askerId);
    // Settings changed since the last grant: what was given under the old ones goes.
    if (kept?.settings !== holder.settings) this.byAsker.set(askerId, (kept = { settings: holder.settings, tools: new Map() }));
    kept.tools.set(holder.person, (kept.tools.get(holder.person) ?? new Set()).add(tool));
  }

  drop(askerId: string): void {
    this.byAsker.delete(askerId);
  }
}
