// The bridge as it runs: src/ bundled by esbuild into dist/server/, with the packages it uses.
// `npm start`, `npm run worker` and `npm run doctor` build it first (about a second) and run it
// with plain node. A start used to load ~1,100 modules, one file each, and Node's ES module
// loader spent half the start's CPU resolving and reading them; a bundle halves the start.
//
// Entries: the three programs, the MCP relay (a build of its own, below), and each chat app's `transport.ts`, which the bridge loads by
// path when that app is configured (src/transports/serving/load.ts). What they share is split
// into dist/server/chunks/, and what starts lazily (the workers, the gRPC server, the OTLP
// exporter) stays out of the start. Source maps sit beside (`node --enable-source-maps`).
// Mind: a CommonJS package imported with `import()` gives only its default export in a split
// chunk; import it statically from a file of ours that is itself imported lazily.
//
// Types are not checked here (that is `tsc`, in `npm test`). A file is written only when it
// changed, through a rename, so a bridge and its workers started at once from one checkout
// never read a file half written.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
const OUT = join(ROOT, 'dist', 'server');

/**
 * Packages loaded from node_modules as they are, not bundled: each finds files of its own at
 * run time (beside `__dirname`), or is native code.
 */
const KEPT_AS_INSTALLED = [
  '@resvg/resvg-js', // native
  'pino', // its transports run a worker file of its own (thread-stream)
  'pino-pretty',
  'ioredis', // it trims its errors' stacks by its own path (__dirname)
  '@grpc/grpc-js', // the .proto files of its own services
  '@grpc/proto-loader',
  'discord.js', // its gateway's worker file (@discordjs/ws)
  '@discordjs/*',
  'open', // its xdg-open script (MSAL's interactive sign-in, which a bot never uses)
];

/**
 * Bundled packages that name `__dirname` or `__filename` harmlessly, each with why. Any other
 * use fails the build, naming the package: it would look for its files beside the bundle.
 */
const HARMLESS_DIRNAME = {
  '@grammyjs/runner': 'in a comment only',
  undici: 'behind `typeof __filename`, for stack traces',
  botbuilder: 'in a comment only',
};

/** The package a path in node_modules belongs to (the innermost, for one nested in another). */
function packageOf(path) {
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return match ? match[1] : path;
}

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

// Each chat app's code is its folder's transport.ts (src/kernel/known-transports.ts names the
// folders: src/transports/*, and the web chat's in src/surfaces/web); the kernel's is its port.
const transports = (await filesUnder(SRC)).filter((file) => file.endsWith('/transport.ts') && !file.startsWith(join(SRC, 'kernel')));
const findsItsOwnFiles = new Set();
/** What both builds are: Node's ES modules, each file's map beside it, and no bundled package that looks for files beside it. */
const common = {
  outdir: OUT,
  outbase: SRC,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Bundled CommonJS calls require(): an ES module has none of its own.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
  write: false,
  logLevel: 'warning',
  plugins: [
    {
      name: 'no-package-looks-beside-the-bundle',
      setup(onBuild) {
        onBuild.onLoad({ filter: /node_modules\/.*\.[cm]?js$/ }, async (args) => {
          const owner = packageOf(args.path);
          if (!(owner in HARMLESS_DIRNAME) && /\b__(dirname|filename)\b/.test(await readFile(args.path, 'utf8'))) findsItsOwnFiles.add(owner);
          return undefined;
        });
      },
    },
  ],
};
const result = await build({
  ...common,
  entryPoints: ['main.ts', 'worker.ts', 'doctor.ts'].map((file) => join(SRC, file)).concat(transports),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external: KEPT_AS_INSTALLED,
});
// The MCP relay an agent without MCP over http runs (src/mcp-stdio-relay.ts): one file, the SDK
// inside and no chunk beside it, so an agent's walls show that file alone of the bridge.
const relay = await build({ ...common, entryPoints: [join(SRC, 'mcp-stdio-relay.ts')] });
if (findsItsOwnFiles.size > 0) {
  console.error(
    `jsonl-bridge: ${[...findsItsOwnFiles].join(', ')} would look for files of its own beside the bundle (__dirname): add it to KEPT_AS_INSTALLED in scripts/build-server.mjs.`,
  );
  process.exit(1);
}
let written = 0;
const outputFiles = [...result.outputFiles, ...relay.outputFiles];
for (const file of outputFiles) if (await writeIfChanged(file.path, Buffer.from(file.contents))) written += 1;
// What an earlier build left is removed, but for the chunks of the last day: a chunk is named by
// its content's hash, and a bridge still running from that build loads some of its chunks late
// (the workers' side, an /export's zip), after a `git pull` and a build for another program.
const expected = new Set(outputFiles.map((file) => file.path));
const dayAgo = Date.now() - 24 * 3600_000;
for (const file of await filesUnder(OUT).catch(() => [])) {
  if (expected.has(file) || file.endsWith('.tmp')) continue;
  if (file.startsWith(join(OUT, 'chunks')) && (await stat(file)).mtimeMs > dayAgo) continue;
  await rm(file, { force: true });
}
const folders = (await readdir(OUT, { withFileTypes: true, recursive: true })).filter((entry) => entry.isDirectory());
for (const folder of folders
  .map((entry) => join(entry.parentPath, entry.name))
  .sort()
  .reverse())
  await rmdir(folder).catch(() => {});
if (process.argv.includes('--verbose')) console.log(`dist/server: ${written} of ${expected.size} files written`);
