/** A variable's comma-separated entries, trimmed, empty ones left out (`a, b,` is `a` and `b`). */
export function commaList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
