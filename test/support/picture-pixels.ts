import { PNG } from 'pngjs';
import { NODE_STATES, type NodeState } from '../../src/services/pictures/graph-model.ts';
import { STATE_STYLE } from '../../src/services/pictures/graph-svg.ts';

/**
 * A graph picture read back from its PNG: how many pixels show each state's fill colour
 * exactly (the inside of a box of that state; edges are blended, and text is darker), so a
 * test can tell which states a picture shows without knowing where its boxes are.
 */
export function statePixels(png: Uint8Array): Record<NodeState, number> & { width: number; height: number } {
  const image = PNG.sync.read(Buffer.from(png));
  const byColour = new Map(NODE_STATES.map((state) => [STATE_STYLE[state].fill.toLowerCase(), state]));
  const counts = Object.fromEntries(NODE_STATES.map((state) => [state, 0])) as Record<NodeState, number>;
  const hex = (n: number) => n.toString(16).padStart(2, '0');
  for (let i = 0; i < image.data.length; i += 4) {
    const state = byColour.get(`#${hex(image.data[i]!)}${hex(image.data[i + 1]!)}${hex(image.data[i + 2]!)}`);
    if (state) counts[state]++;
  }
  return { ...counts, width: image.width, height: image.height };
}
