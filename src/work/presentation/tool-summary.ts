/** The few words that say what a tool call does: `Bash: npm test`, `Edit: src/a.ts`. */
const KEYS_BY_TOOL: Record<string, string[]> = {
  Bash: ['command'],
  Execute: ['command'],
  shell: ['command'],
  Read: ['file_path', 'path'],
  Write: ['file_path', 'path'],
  Edit: ['file_path', 'path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  Create: ['file_path', 'path'],
  Grep: ['pattern'],
  Glob: ['pattern'],
  LS: ['path', 'directory_path'],
  WebFetch: ['url'],
  FetchUrl: ['url'],
  WebSearch: ['query'],
  web_search: ['query'],
  Task: ['description', 'prompt'],
  Agent: ['description', 'prompt'],
  TodoWrite: [],
};

const GENERIC_KEYS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'task', 'prompt', 'name'];

/** The CLI's own Task tool (Claude Code calls it Agent too): which agent it hands the work to leads. */
const DELEGATING = new Set(['Task', 'Agent']);

export function toolSummary(name: string, input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  if (DELEGATING.has(name) && typeof record.subagent_type === 'string' && record.subagent_type.trim()) {
    const what = ['description', 'prompt'].map((key) => record[key]).find((value) => typeof value === 'string' && value.trim());
    return oneLine(`${record.subagent_type}${typeof what === 'string' ? `: ${what}` : ''}`);
  }
  const keys = KEYS_BY_TOOL[name] ?? GENERIC_KEYS;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return oneLine(value);
  }
  if (KEYS_BY_TOOL[name]) return '';
  // An unknown tool (an MCP one, say): the first short string argument is usually the point.
  const first = Object.values(record).find((value) => typeof value === 'string' && value.trim());
  return typeof first === 'string' ? oneLine(first) : '';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
