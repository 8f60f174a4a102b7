import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { layoutGraph, METRICS } from '../../src/services/pictures/graph-layout.ts';
import type { GraphModel } from '../../src/services/pictures/graph-model.ts';
import { graphSvg } from '../../src/services/pictures/graph-svg.ts';
import { FONT_FILES, svgToPng } from '../../src/services/pictures/render-png.ts';

// SVG to PNG with resvg and the DejaVu Sans the package ships: a real PNG, at the size asked,
// whose words are drawn (a font missing would leave them blank, and the test says so).
const MODEL: GraphModel = {
  title: 'Release · 1/2 done',
  nodes: [
    { id: 'analyze', label: 'Analyze the repository', state: 'done', detail: '#1 · 0:03' },
    { id: 'build', label: 'Build it', state: 'running' },
  ],
  edges: [{ from: 'analyze', to: 'build' }],
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Pixels darker than mid-grey inside `area` (in SVG units, scaled): text, where nothing else is dark. */
function darkPixels(png: PNG, area: { x: number; y: number; width: number; height: number }, scale: number): number {
  let dark = 0;
  for (let y = Math.floor(area.y * scale); y < Math.ceil((area.y + area.height) * scale); y++)
    for (let x = Math.floor(area.x * scale); x < Math.ceil((area.x + area.width) * scale); x++) {
      const i = (y * png.width + x) * 4;
      if (png.data[i]! * 0.3 + png.data[i + 1]! * 0.59 + png.data[i + 2]! * 0.11 < 128) dark++;
    }
  return dark;
}

/** Where the label and detail of `id` are written: inside its box, right of its mark, clear of its border. */
function wordsOf(model: GraphModel, id: string) {
  const node = layoutGraph(model).nodes.find((n) => n.id === id)!;
  return { x: node.x + METRICS.padLeft - 2, y: node.y + 4, width: node.width - METRICS.padLeft - 4, height: node.height - 8 };
}

describe('SVG to PNG', () => {
  it('is a PNG twice the size of the SVG, within the longest side asked for', async () => {
    const svg = graphSvg(MODEL);
    const { width, height } = layoutGraph(MODEL);
    const out = await svgToPng(svg);
    expect(out.png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(out.png.toString('latin1', 12, 16)).toBe('IHDR');
    expect([out.png.readUInt32BE(16), out.png.readUInt32BE(20)]).toEqual([width * 2, height * 2]);
    expect([out.width, out.height]).toEqual([width * 2, height * 2]);
    const decoded = PNG.sync.read(out.png);
    expect([decoded.width, decoded.height]).toEqual([width * 2, height * 2]);

    const small = await svgToPng(svg, { maxSide: 200 });
    expect(Math.max(small.width, small.height)).toBeLessThanOrEqual(200);
    expect(Math.max(small.width, small.height)).toBeGreaterThanOrEqual(199);
  });

  it('draws the words in the shipped font; without it they would be blank', async () => {
    const svg = graphSvg(MODEL);
    const png = PNG.sync.read((await svgToPng(svg)).png);
    const label = darkPixels(png, wordsOf(MODEL, 'analyze'), 2);
    const title = darkPixels(png, { x: 0, y: 0, width: 300, height: METRICS.titleHeight }, 2);
    expect(label).toBeGreaterThan(300);
    expect(title).toBeGreaterThan(300);

    // The same SVG rendered with no font at all: the boxes are there, the words are not.
    const blank = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [] }, fitTo: { mode: 'zoom', value: 2 } }).render();
    const noFont = PNG.sync.read(blank.asPng());
    expect(darkPixels(noFont, wordsOf(MODEL, 'analyze'), 2)).toBe(0);
    expect(darkPixels(noFont, { x: 0, y: 0, width: 300, height: METRICS.titleHeight }, 2)).toBe(0);

    // And a longer label covers more of its box than a shorter one.
    const shorter = { ...MODEL, nodes: MODEL.nodes.map((n) => (n.id === 'analyze' ? { ...n, label: 'An' } : n)) };
    const fewer = darkPixels(PNG.sync.read((await svgToPng(graphSvg(shorter))).png), wordsOf(shorter, 'analyze'), 2);
    expect(fewer).toBeGreaterThan(0);
    expect(fewer).toBeLessThan(label);
  });

  it('loads only the fonts it ships', () => {
    expect(FONT_FILES.map((path) => path.split('/').slice(-2).join('/'))).toEqual(['ttf/DejaVuSans.ttf', 'ttf/DejaVuSans-Bold.ttf']);
  });

  it('refuses what is not SVG', async () => {
    await expect(svgToPng('not an svg')).rejects.toThrow();
  });
});
