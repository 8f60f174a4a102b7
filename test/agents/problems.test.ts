import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/engine/agents/problem.ts';
import { agentJson, makeWorkspace, type Workspace } from './workspace.ts';

let ws: Workspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const AGENT = 'project/.bridge/agents/reviewer';

/** Writes one workdir agent and returns the formatted problems, after checking it was skipped. */
async function problemsFor(fields: Record<string, unknown> | string, promptMd?: string): Promise<string[]> {
  await ws.write(`${AGENT}/agent.json`, typeof fields === 'string' ? fields : agentJson(fields));
  if (promptMd !== undefined) await ws.write(`${AGENT}/prompt.md`, promptMd);
  const catalog = await ws.load();
  expect(catalog.get('reviewer')).toBeUndefined();
  return catalog.problems.map((problem) => formatProblem(problem).replaceAll(ws.root, '~'));
}

const json = `~/${AGENT}/agent.json`;
const md = `~/${AGENT}/prompt.md`;

describe('bad agent definitions are reported and skipped', () => {
  it('formats a problem with and without a field', () => {
    expect(formatProblem({ file: '/a/agent.json', field: 'cli', message: 'bad' })).toBe('/a/agent.json: field "cli": bad');
    expect(formatProblem({ file: '/a/agent.json', message: 'bad' })).toBe('/a/agent.json: bad');
  });

  it('invalid JSON', async () => {
    const [problem, ...rest] = await problemsFor('{ "description": "d", }');
    expect(rest).toEqual([]);
    expect(problem).toMatch(new RegExp(`^${json}: not valid JSON: `));
  });

  it('JSON that is not an object', async () => {
    expect(await problemsFor('["x"]')).toEqual([`${json}: expected object, received array`]);
  });

  it('unknown fields, one problem each', async () => {
    expect(await problemsFor({ description: 'd', prompt: 'p', tools: ['Read'], colour: 'red' })).toEqual([
      `${json}: field "tools": unknown field (known: name, description, prompt, model, cli, allowedTools, disallowedTools, maxTurns, budget, mcpServers, skills, icon, enabled)`,
      `${json}: field "colour": unknown field (known: name, description, prompt, model, cli, allowedTools, disallowedTools, maxTurns, budget, mcpServers, skills, icon, enabled)`,
    ]);
  });

  it('missing, empty and mistyped fields, all at once', async () => {
    expect(await problemsFor({ name: ' ', prompt: 'p', model: 7, allowedTools: ['Read', ''], maxTurns: 1.5, enabled: 'yes' })).toEqual([
      `${json}: field "name": must not be empty`,
      `${json}: field "description": required`,
      `${json}: field "model": expected string, received number`,
      `${json}: field "allowedTools.1": must not be empty`,
      `${json}: field "maxTurns": must be a positive integer`,
      `${json}: field "enabled": expected boolean, received string`,
    ]);
  });

  it('a tool list entry that is neither a tool nor a permission rule', async () => {
    expect(await problemsFor({ description: 'd', prompt: 'p', allowedTools: ['Bash(git log:*)', 'Bash(unclosed'] })).toEqual([
      `${json}: field "allowedTools.1": not a tool or a permission rule (Tool, Tool(specifier), mcp__server__tool)`,
    ]);
  });

  it('an unknown cli', async () => {
    expect(await problemsFor({ description: 'd', prompt: 'p', cli: 'gemini' })).toEqual([
      `${json}: field "cli": unknown CLI "gemini" (known: claude, codex, droid)`,
    ]);
  });

  it('a tool both allowed and disallowed', async () => {
    expect(await problemsFor({ description: 'd', prompt: 'p', allowedTools: ['Read', 'Bash', 'Edit'], disallowedTools: ['Edit', 'Bash'] })).toEqual([
      `${json}: field "disallowedTools": also in "allowedTools": Edit, Bash; a tool cannot be both allowed and disallowed`,
    ]);
  });

  it('no prompt at all', async () => {
    expect(await problemsFor({ description: 'd' })).toEqual([`${json}: field "prompt": required: set it here or write ${md}`]);
  });

  it('a prompt both in agent.json and prompt.md, reported with the schema problems', async () => {
    expect(await problemsFor({ prompt: 'p' }, 'also p')).toEqual([
      `${json}: field "description": required`,
      `${json}: field "prompt": also given by ${md}; keep only one`,
    ]);
  });

  it('an empty prompt, in either place', async () => {
    expect(await problemsFor({ description: 'd', prompt: '  ' })).toEqual([`${json}: field "prompt": must not be empty`]);
    expect(await problemsFor({ description: 'd' }, '\n \n')).toEqual([`${md}: the prompt is empty`]);
  });

  it('a folder with no agent.json', async () => {
    await ws.write(`${AGENT}/prompt.md`, 'p');
    const catalog = await ws.load();
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems.map(formatProblem)).toEqual([`${join(ws.root, AGENT)}: no agent.json in this folder`]);
  });

  it('invalid slugs, for folders and for .md files', async () => {
    await ws.write('data/agents/Big Agent/agent.json', agentJson({ description: 'd', prompt: 'p' }));
    await ws.write('project/.claude/agents/my agent.md', '---\ndescription: d\n---\np\n');
    const catalog = await ws.load();
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems.map((problem) => formatProblem(problem).replaceAll(ws.root, '~'))).toEqual([
      '~/data/agents/Big Agent: invalid agent slug "Big Agent": use 1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit',
      '~/project/.claude/agents/my agent.md: invalid agent slug "my agent": use 1-64 lower-case letters, digits, "-" or "_", starting with a letter or digit',
    ]);
  });

  it('a file over 256 KiB, without reading it', async () => {
    const huge = `---\ndescription: d\n---\n${'x'.repeat(300_000)}\n`;
    const file = await ws.write('project/.claude/agents/huge.md', huge);
    const catalog = await ws.load();
    expect(catalog.agents).toEqual([]);
    expect(catalog.problems.map(formatProblem)).toEqual([`${file}: file is 300024 bytes, over the 256 KiB limit; skipped`]);
  });

  it('something that is not a regular file: a FIFO (without hanging) or a linked folder', async () => {
    await mkdir(join(ws.root, AGENT), { recursive: true });
    execFileSync('mkfifo', [join(ws.root, AGENT, 'agent.json')]);
    await mkdir(join(ws.workdir, '.claude/agents'), { recursive: true });
    await symlink(ws.userDir, join(ws.workdir, '.claude/agents/linked.md'));
    await mkdir(ws.userDir, { recursive: true });
    const catalog = await ws.load();
    expect(catalog.problems.map((problem) => formatProblem(problem).replaceAll(ws.root, '~'))).toEqual([
      `${json}: not a regular file`,
      '~/project/.claude/agents/linked.md: not a regular file',
    ]);
  });

  it('one bad agent does not keep the good ones from loading', async () => {
    await ws.write(`${AGENT}/agent.json`, '{');
    await ws.write('project/.bridge/agents/good/agent.json', agentJson({ description: 'd', prompt: 'p' }));
    const catalog = await ws.load();
    expect(catalog.agents.map((agent) => agent.slug)).toEqual(['good']);
    expect(catalog.problems).toHaveLength(1);
  });
});
