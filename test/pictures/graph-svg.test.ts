import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { layoutGraph, METRICS, textWidth } from '../../src/services/pictures/graph-layout.ts';
import { NODE_STATES, type GraphModel } from '../../src/services/pictures/graph-model.ts';
import { escapeXml, graphSvg } from '../../src/services/pictures/graph-svg.ts';

// The graph as boxes and arrows: laid out by dagre, drawn as SVG a page can query.
const FAN: GraphModel = {
  title: 'Release · 1/5 done',
  nodes: [
    { id: 'analyze', label: 'analyze', state: 'done', detail: '#1 · 0:03' },
    { id: 'backend', label: 'backend', state: 'running', detail: '#2' },
    { id: 'frontend', label: 'frontend', state: 'failed' },
    { id: 'docs', label: 'docs', state: 'skipped' },
    { id: 'integration', label: 'integration', state: 'waiting' },
  ],
  edges: [
    { from: 'analyze', to: 'backend' },
    { from: 'analyze', to: 'frontend' },
    { from: 'analyze', to: 'docs' },
    { from: 'backend', to: 'integration' },
    { from: 'frontend', to: 'integration' },
    { from: 'docs', to: 'integration' },
  ],
};

const chain = (n: number): GraphModel => ({
  nodes: Array.from({ length: n }, (_, i) => ({ id: `s${i}`, label: `step ${i}`, state: 'waiting' })),
  edges: Array.from({ length: n - 1 }, (_, i) => ({ from: `s${i}`, to: `s${i + 1}` })),
});

/** Every `<g data-node>` of the SVG: its id and state, as a page's querySelectorAll would find them. */
function nodesOf(svg: string): { id: string; state: string }[] {
  return [...svg.matchAll(/<g data-node="([^"]*)" data-state="([^"]*)"/g)].map((m) => ({ id: m[1]!, state: m[2]! }));
}
const edgesOf = (svg: string) => [...svg.matchAll(/<path data-from="([^"]*)" data-to="([^"]*)"/g)].map((m) => `${m[1]}→${m[2]}`);

/** Parsed by resvg: a document it refuses would be a picture never drawn. */
const parses = (svg: string) => new Resvg(svg, { font: { loadSystemFonts: false } }).width;

describe('graph layout', () => {
  it('places every node inside the picture, below the title, with no two boxes overlapping', () => {
    const layout = layoutGraph(FAN);
    expect(layout.nodes.map((n) => n.id)).toEqual(FAN.nodes.map((n) => n.id));
    expect(layout.edges).toHaveLength(6);
    for (const node of layout.nodes) {
      expect(node.x).toBeGreaterThanOrEqual(0);
      expect(node.y).toBeGreaterThanOrEqual(METRICS.titleHeight);
      expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
      expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
    }
    for (const a of layout.nodes)
      for (const b of layout.nodes) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.id} and ${b.id} overlap`).toBe(true);
      }
  });

  it('runs each arrow from the edge of one box to the edge of the next', () => {
    const layout = layoutGraph(FAN);
    const box = (id: string) => layout.nodes.find((n) => n.id === id)!;
    const near = (p: { x: number; y: number }, id: string) => {
      const b = box(id);
      const dx = Math.max(b.x - p.x, 0, p.x - (b.x + b.width));
      const dy = Math.max(b.y - p.y, 0, p.y - (b.y + b.height));
      return Math.hypot(dx, dy) < 2;
    };
    for (const edge of layout.edges) {
      expect(edge.points.length).toBeGreaterThanOrEqual(2);
      expect(near(edge.points[0]!, edge.from), `${edge.from}→${edge.to} starts at ${edge.from}`).toBe(true);
      expect(near(edge.points.at(-1)!, edge.to), `${edge.from}→${edge.to} ends at ${edge.to}`).toBe(true);
    }
  });

  it('lays a chain top to bottom, steps with no dependencies in a grid, and keeps any picture within a photo’s proportions', () => {
    const line = layoutGraph(chain(10));
    expect(line.direction).toBe('TB');
    expect(line.height).toBeGreaterThan(line.width);
    const grid = layoutGraph({ nodes: chain(10).nodes, edges: [] });
    expect(grid.direction).toBe('grid');
    expect(new Set(grid.nodes.map((n) => n.y)).size).toBe(3); // 4, 4 and 2
    for (const model of [chain(50), { nodes: chain(50).nodes, edges: [] }, { nodes: chain(1).nodes, edges: [] }]) {
      const { width, height } = layoutGraph(model);
      expect(Math.max(width, height) / Math.min(width, height)).toBeLessThanOrEqual(8);
    }
  });

  it('widens the picture for its title, centring the graph, and cuts a title too long for any picture', () => {
    const narrow = { ...chain(2), title: '#1 Drawn · 2/2 done · completed' };
    const layout = layoutGraph(narrow);
    expect(textWidth(layout.title!, METRICS.titleSize, true) + 2 * METRICS.margin).toBeLessThanOrEqual(layout.width);
    const [box] = layout.nodes;
    expect(box!.x - 0).toBeCloseTo(layout.width - (box!.x + box!.width), 0); // centred
    const long = layoutGraph({ ...chain(2), title: `#2 ${'A very long name for a plan '.repeat(5)}` });
    expect(long.width).toBeLessThanOrEqual(METRICS.maxTitleWidth);
    expect(long.title!.endsWith('…')).toBe(true);
    expect(textWidth(long.title!, METRICS.titleSize, true) + 2 * METRICS.margin).toBeLessThanOrEqual(long.width);
  });

  it('draws each node once, and leaves out arrows to nodes that are not there, to themselves, or twice', () => {
    const layout = layoutGraph({
      nodes: [...chain(3).nodes, { id: 's1', label: 'again', state: 'done' }],
      edges: [...chain(3).edges, { from: 's0', to: 's1' }, { from: 's2', to: 'gone' }, { from: 's2', to: 's2' }],
    });
    expect(layout.nodes.map((n) => `${n.id}:${n.label}`)).toEqual(['s0:step 0', 's1:step 1', 's2:step 2']);
    expect(layout.edges.map((e) => `${e.from}→${e.to}`)).toEqual(['s0→s1', 's1→s2']);
  });

  it('cuts long labels short so they fit their box, never splitting a character', () => {
    const long = 'Wire every module of the monorepo together and 🚀 ship it';
    const [node] = layoutGraph({ nodes: [{ id: 'a', label: long, state: 'running', detail: 'x'.repeat(100) }], edges: [] }).nodes;
    expect(node!.shownLabel.endsWith('…')).toBe(true);
    expect(long.startsWith(node!.shownLabel.slice(0, -1))).toBe(true);
    expect(node!.width).toBeLessThanOrEqual(METRICS.maxNodeWidth);
    expect(node!.shownDetail).toMatch(/^running · x+…$/);
    // A blank label shows the id.
    expect(layoutGraph({ nodes: [{ id: 'lint', label: '  ', state: 'done' }], edges: [] }).nodes[0]!.shownLabel).toBe('lint');
  });
});

describe('graph SVG', () => {
  it('has a group per node with its id and state, and an arrow per edge', () => {
    const svg = graphSvg(FAN);
    expect(nodesOf(svg)).toEqual(FAN.nodes.map((n) => ({ id: n.id, state: n.state })));
    expect(edgesOf(svg)).toEqual(FAN.edges.map((e) => `${e.from}→${e.to}`));
    expect(svg.match(/marker-end="url\(#arrow-(done|plain)\)"/g)).toHaveLength(6);
    // Arrows out of a finished step are drawn as done.
    expect(svg).toMatch(/data-from="analyze" data-to="backend"[^>]*stroke="#16a34a"[^>]*arrow-done/);
    expect(svg).toMatch(/data-from="backend" data-to="integration"[^>]*arrow-plain/);
    expect(svg).toContain('>Release · 1/5 done</text>');
    expect(svg).toContain('>done · #1 · 0:03</text>');
    expect(parses(svg)).toBeGreaterThan(0);
  });

  it('marks every state its own way', () => {
    const svg = graphSvg({ nodes: NODE_STATES.map((state) => ({ id: state, label: state, state })), edges: [] });
    const fills = NODE_STATES.map((state) => new RegExp(`data-node="${state}"[^]*?<rect [^>]*fill="(#[0-9a-f]{6})"`).exec(svg)?.[1]);
    expect(new Set(fills).size).toBe(NODE_STATES.length);
    expect(nodesOf(svg).map((n) => n.state)).toEqual([...NODE_STATES]);
  });

  it('escapes labels, ids, details and the title, and replaces what XML cannot hold', () => {
    const nasty = `<script>alert("x")</script> & 'quotes'`;
    const svg = graphSvg({
      title: `${nasty}\u0007`,
      nodes: [
        { id: 'a"><b', label: nasty, state: 'done', detail: '<i>&' },
        { id: 'b', label: 'fine', state: 'waiting' },
      ],
      edges: [{ from: 'a"><b', to: 'b' }],
    });
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<i>');
    expect(svg).not.toContain('\u0007');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(svg).toContain('data-node="a&quot;&gt;&lt;b"');
    expect(svg).toContain('data-from="a&quot;&gt;&lt;b" data-to="b"');
    expect(nodesOf(svg)).toHaveLength(2);
    expect(parses(svg)).toBeGreaterThan(0);
    expect(escapeXml('a\uD800b\u0000c')).toBe('a\uFFFDb\uFFFDc');
  });

  it('leaves the background out for a page, and prefixes its ids when asked', () => {
    const svg = graphSvg(FAN, { background: null, idPrefix: 'o7-' });
    expect(svg).not.toContain('<rect width="100%"');
    expect(svg).toContain('<marker id="o7-arrow-done"');
    expect(svg).toContain('marker-end="url(#o7-arrow-plain)"');
    expect(svg).not.toContain('url(#arrow-');
  });
});
