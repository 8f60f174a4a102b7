/**
 * The layers of src/ as a check: its tiers, each importing only those below it; no cycle
 * between files or between folders, type imports included (a type import still ties one
 * part's design to another's). `npm test` runs it through
 * test/architecture/dependencies.test.ts.
 */

/** The tiers of src/, bottom first (docs/how-it-works.md says what each holds). The entry points, src/*.ts, stand above them all. */
const TIERS = ['kernel', 'engine', 'services', 'work', 'chat', 'transports', 'surfaces', 'app'];

const tiersImportDown = TIERS.slice(0, -1).map((tier, at) => ({
  name: `${tier}-imports-down`,
  severity: 'error',
  comment: `src/${tier}/ may import only the tiers below it (${TIERS.slice(0, at).join(', ') || 'none'}): move what it needs of a higher tier down, or have the higher tier pass it in.`,
  from: { path: `^src/${tier}/` },
  to: { path: `^src/(${TIERS.slice(at + 1).join('|')})/` },
}));

module.exports = {
  TIERS,
  forbidden: [
    ...tiersImportDown,
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'A cycle between modules: move what both need below both, or pass it in.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'A cycle between the folders (parts) of src/: dependencies point one way, from the transports and app.ts down to ports.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'commands-on-top',
      severity: 'error',
      comment:
        'The commands are the top layer: they use the other parts of the chat tier, the engine and the services, and only create-app.ts (which wires them) imports them. Move what another part needs of a command below it (src/chat/dispatch/command.ts holds what a command is).',
      from: { path: '^src/', pathNot: ['^src/chat/commands/', '^src/app/create-app\\.ts$'] },
      to: { path: '^src/chat/commands/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: `import type` still makes one part depend on another's shapes.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|test|bench)/' },
  },
};
