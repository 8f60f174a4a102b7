import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type Workspace } from './workspace.ts';

let ws: Workspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

async function loadOne(content: string) {
  const file = await ws.write('project/.claude/agents/reviewer.md', content);
  const catalog = await ws.load();
  return { file, catalog, agent: catalog.get('reviewer') };
}

describe('Claude Code agent files', () => {
  it('accepts tools as a comma-separated string', async () => {
    const { agent, catalog } = await loadOne('---\ndescription: d\ntools: Read, Grep,Glob ,\n---\np\n');
    expect(catalog.problems).toEqual([]);
    expect(agent?.allowedTools).toEqual(['Read', 'Grep', 'Glob']);
  });

  it('accepts tools as a YAML list, and both spellings of the other keys', async () => {
    const { agent } = await loadOne('---\ndescription: d\ntools:\n  - Read\n  - Edit\ndisallowed-tools: [Bash]\nmax-turns: 4\n---\np\n');
    expect(agent).toMatchObject({ allowedTools: ['Read', 'Edit'], disallowedTools: ['Bash'], maxTurns: 4 });
    const camel = await loadOne('---\ndescription: d\ndisallowedTools: Bash, WebFetch\nmaxTurns: 9\ncli: codex\nmodel: gpt-5\n---\np\n');
    expect(camel.agent).toMatchObject({ disallowedTools: ['Bash', 'WebFetch'], maxTurns: 9, cli: 'codex', model: 'gpt-5' });
  });

  it('takes a budget in US dollars, as a number or as people write it, and refuses one that is not', async () => {
    expect((await loadOne('---\ndescription: d\nbudget: 0.25\n---\np\n')).agent?.budgetUsd).toBe(0.25);
    expect((await loadOne('---\ndescription: d\nbudget: "$1.50"\n---\np\n')).agent?.budgetUsd).toBe(1.5);
    const { catalog, file } = await loadOne('---\ndescription: d\nbudget: lots\n---\np\n');
    expect(catalog.problems).toEqual([{ file, field: 'budget', message: 'must be an amount of US dollars above 0, like 0.50' }]);
  });

  it('ignores front matter keys it does not know, and blank ones', async () => {
    const { agent, catalog, file } = await loadOne('---\nname: code-reviewer\ndescription: d\ncolor: purple\nmodel:\nx-custom: {a: 1}\n---\nYou review.\n');
    expect(catalog.problems).toEqual([]);
    expect(agent).toEqual({ slug: 'reviewer', name: 'code-reviewer', description: 'd', prompt: 'You review.', enabled: true, source: 'claude', file });
  });

  it("takes the seed's other fields: MCP servers the operator configured, skills, an icon", async () => {
    const { agent, catalog } = await loadOne('---\ndescription: d\nmcpServers: github, docs\nskills: [pdf, xlsx]\nicon: 🔍\n---\np\n');
    expect(catalog.problems).toEqual([]);
    expect(agent).toMatchObject({ mcpServers: ['github', 'docs'], skills: ['pdf', 'xlsx'], icon: '🔍' });
    const wrong = await loadOne('---\ndescription: d\nmcpServers: [slack]\nskills: "no spaces allowed"\nicon: "far too long to be an icon at all"\n---\np\n');
    expect(wrong.agent).toBeUndefined();
    expect(wrong.catalog.problems.map((p) => `${p.field}: ${p.message}`)).toEqual([
      'mcpServers.0: unknown MCP server "slack" (configured: github, docs; the operator\'s servers are in <BRIDGE_DATA_DIR>/mcp-servers.json)',
      'skills.0: a skill name: letters, digits, ".", ":", "_" or "-"',
      'icon: an emoji or two, at most 16 characters',
    ]);
  });

  it('treats model "inherit" as no model', async () => {
    const { agent } = await loadOne('---\ndescription: d\nmodel: inherit\n---\np\n');
    expect(agent).toBeDefined();
    expect(agent && 'model' in agent).toBe(false);
  });

  it('reads CRLF files', async () => {
    const { agent, catalog } = await loadOne('---\r\ndescription: Reviews\r\ntools: Read, Grep\r\n---\r\nLine one.\r\nLine two.\r\n');
    expect(catalog.problems).toEqual([]);
    expect(agent).toMatchObject({ description: 'Reviews', allowedTools: ['Read', 'Grep'], prompt: 'Line one.\nLine two.' });
  });

  it('reads a file that starts with a byte order mark', async () => {
    const { agent } = await loadOne('\uFEFF---\ndescription: d\n---\np\n');
    expect(agent?.description).toBe('d');
  });

  it('keeps the body after the front matter intact, horizontal rules included', async () => {
    const { agent } = await loadOne('---\ndescription: d\n---\n# Role\n\nReview.\n\n---\n\nMore.\n');
    expect(agent?.prompt).toBe('# Role\n\nReview.\n\n---\n\nMore.');
  });

  it('reports a file without front matter as missing its description', async () => {
    const { catalog, file } = await loadOne('Just a prompt.\n');
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems).toEqual([{ file, field: 'description', message: 'required' }]);
  });

  it('reports an empty body', async () => {
    const { catalog, file } = await loadOne('---\ndescription: d\n---\n\n  \n');
    expect(catalog.problems).toEqual([{ file, message: 'the prompt (the Markdown after the front matter) is empty' }]);
  });

  it('reports invalid YAML with the line in the file', async () => {
    const { catalog, file } = await loadOne('---\ndescription: d\ntools: [Read\nmodel: x\n---\np\n');
    // yaml notices the unclosed "[" on the next line.
    expect(catalog.problems).toEqual([
      {
        file,
        message: 'invalid YAML in the front matter at line 4: Flow sequence in block collection must be sufficiently indented and end with a ]',
      },
    ]);
  });

  it('reports duplicate keys, an unclosed block and a non-mapping front matter', async () => {
    expect((await loadOne('---\ndescription: a\ndescription: b\n---\np\n')).catalog.problems[0]?.message).toBe(
      'invalid YAML in the front matter at line 3: Map keys must be unique',
    );
    expect((await loadOne('---\ndescription: d\np\n')).catalog.problems[0]?.message).toBe('the front matter has no closing "---" line');
    expect((await loadOne('---\n- a\n- b\n---\np\n')).catalog.problems[0]?.message).toBe('the front matter must be a YAML mapping of fields');
  });

  it('reports schema problems under the keys the file uses', async () => {
    const { catalog, file } = await loadOne('---\ndescription: ""\ntools: 3\nmax-turns: 0\nenabled: "no"\n---\np\n');
    expect(catalog.problems).toEqual([
      { file, field: 'description', message: 'must not be empty' },
      { file, field: 'tools', message: 'expected a list or a comma-separated string' },
      { file, field: 'max-turns', message: 'must be a positive integer' },
      { file, field: 'enabled', message: 'expected boolean, received string' },
    ]);
  });

  it('reports both spellings of one key', async () => {
    const { catalog, file } = await loadOne('---\ndescription: d\nmaxTurns: 3\nmax-turns: 4\n---\np\n');
    expect(catalog.problems).toEqual([{ file, field: 'max-turns', message: 'also given as "maxTurns"; keep only one' }]);
  });

  it('reports a tool both allowed and disallowed, naming the keys the file uses', async () => {
    const { catalog, file } = await loadOne('---\ndescription: d\ntools: Read, Bash\ndisallowed-tools: Bash\n---\np\n');
    expect(catalog.problems).toEqual([{ file, field: 'disallowed-tools', message: 'also in "tools": Bash; a tool cannot be both allowed and disallowed' }]);
  });
});
