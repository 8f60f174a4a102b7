// CLIs slip their own context into user messages; a script wants the human's prompt.

const CONTEXT_PREFIXES = [
  '<system-reminder>', // claude, droid
  '<environment_context>', // codex
  '<user_instructions>', // codex (AGENTS.md)
  '# AGENTS.md instructions', // codex
];

/** True for text a CLI injected into a user message rather than text the user typed. */
export function isInjectedContext(text: string): boolean {
  const trimmed = text.trimStart();
  return CONTEXT_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}
