/** A tool call's input as the export keeps it: its JSON, indented. */
export function toolInput(input: unknown): string {
  if (input === undefined) return '';
  try {
    return JSON.stringify(input, null, 2) ?? '';
  } catch {
    // A cycle or a BigInt: no CLI prints one, but the export must not fail on it.
    return typeof input === 'string' ? input : '(an input that is not JSON)';
  }
}
