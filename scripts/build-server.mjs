// The bridge as it runs: src/ transpiled file by file to dist/server/, the same tree in
// JavaScript. `npm start`, `npm run worker` and `npm run doctor` build it first (it takes a
// fraction of a second) and run it with plain node: loading TypeScript through a loader at
// every start cost about as much CPU again as the start itself.
//
// Types are not checked here (that is `tsc`, in `npm test`). A file is written only when it
// changed, through a rename, so a bridge and its workers started at once from one checkout
// never read a file half written.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
const OUT = join(ROOT, 'dist', 'server');

/** Every file under `dir`, by path. */
async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Writes `content` to `path` unless it already holds it, whole or not at all. */
async function writeIfChanged(path, content) {
  const old = await readFile(path).catch(() => undefined);
  if (old && Buffer.compare(old, content) === 0) return false;
  try {
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, content);
    await rename(temp, path);
  } catch (error) {
    // A checkout this user may not write (installed by another): the build is its owner's to bring up to date.
    console.error(
      `jsonl-bridge: dist/server is older than src/ and cannot be written here (${error.code ?? error.message}): run \`npm run build\` as the checkout's owner.`,
    );
    process.exit(1);
  }
  return true;
}

const files = await filesUnder(SRC);
const sources = files.filter((file) => file.endsWith('.ts'));
const result = await build({
  entryPoints: sources,
  outdir: OUT,
  outbase: SRC,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  logLevel: 'warning',
  plugins: [
    {
      // File by file: every import stays an import, a source's `.ts` now the `.js` beside it.
      name: 'each-file-its-own',
      setup(onBuild) {
        onBuild.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point') return undefined;
          return { path: args.path.startsWith('.') ? args.path.replace(/\.ts$/, '.js') : args.path, external: true };
        });
      },
    },
  ],
});
// What src/ holds beside its code (the shipped price table), copied where the code looks for it.
const assets = files.filter((file) => !file.endsWith('.ts')).map((file) => ({ from: file, path: join(OUT, relative(SRC, file)) }));
let written = 0;
for (const file of result.outputFiles) if (await writeIfChanged(file.path, Buffer.from(file.contents))) written += 1;
for (const asset of assets) if (await writeIfChanged(asset.path, await readFile(asset.from))) written += 1;
// A source deleted since the last build leaves no module behind that an old import could still load.
const expected = new Set([...result.outputFiles, ...assets].map((file) => file.path));
for (const file of await filesUnder(OUT).catch(() => [])) if (!expected.has(file) && !file.endsWith('.tmp')) await rm(file, { force: true });
if (process.argv.includes('--verbose')) console.log(`dist/server: ${written} of ${expected.size} files written`);
