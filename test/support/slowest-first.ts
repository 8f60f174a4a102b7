import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Files go to the workers longest first, so that no long file starts last and runs alone at
// the end (the fuzz test, small on disk, started at 950 s of a 1,057 s run by vitest's own
// order, which is by file size when it has no timings, as on a fresh clone). The timings are
// vitest's own from an earlier run here, else those recorded in test/durations.json; files in
// neither are new and go first, as vitest would send them.
const RECORDED_DURATIONS = new URL('../durations.json', import.meta.url);

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = JSON.parse(readFileSync(RECORDED_DURATIONS, 'utf8')) as Record<string, number>;
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification): number | undefined => {
      const path = relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      return cached ? cached.duration / 1000 : recorded[path];
    };
    const known = (await super.sort(files)).map((file) => ({ file, seconds: seconds(file) }));
    const first = known.filter((k) => k.seconds === undefined);
    const rest = known.filter((k) => k.seconds !== undefined).sort((a, b) => b.seconds! - a.seconds!);
    return [...first, ...rest].map((k) => k.file);
  }
}
