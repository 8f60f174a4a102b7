/**
 * The layers of src/ as a check: no cycle between files or between folders, type imports
 * included (a type import still ties one part's design to another's). `npm test` runs it
 * through test/architecture/dependencies.test.ts.
 */
module.exports = {
  forbidden: [
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: `import type` still makes one part depend on another's shapes.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|test|bench)/' },
  },
};
