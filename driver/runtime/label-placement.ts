// Where an annotated screenshot draws each ref's label (tabs.ts annotatedScreenshot). Drawn at
// every element's top-left corner, the labels of a crowded toolbar covered one another: `e119`
// under `e123` read `e11` (trial V25, TiddlyWiki's editor toolbar). Each label takes the first
// spot around its element that no label placed before it covers, in the order a reader looks
// for it: above the element, below it, a row further above or below (a crowded toolbar takes
// up to four rows of labels), and only then inside its top-left corner, over what it shows; when
// all are taken, the first (a label is never dropped).

export interface Box {
  ref: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedLabel {
  ref: string;
  x: number;
  y: number;
}

/** The drawn label's size: 11 px bold monospace (about 6.7 px a character) with 3 px padding on
 * each side, 14 px high; a little over, so that two placed side by side never touch. */
export const LABEL_HEIGHT = 14;
export function labelWidth(ref: string): number {
  return Math.ceil(ref.length * 6.7) + 8;
}

function overlaps(a: { x: number; y: number; w: number }, b: { x: number; y: number; w: number }): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + LABEL_HEIGHT && b.y < a.y + LABEL_HEIGHT;
}

export function placeLabels(boxes: Box[]): PlacedLabel[] {
  const placed: Array<{ x: number; y: number; w: number }> = [];
  return boxes.map((b) => {
    const w = labelWidth(b.ref);
    const spots = [
      { x: b.x, y: Math.max(0, b.y - LABEL_HEIGHT - 2) },
      { x: b.x, y: b.y + b.height + 2 },
      { x: b.x, y: Math.max(0, b.y - 2 * LABEL_HEIGHT - 3) },
      { x: b.x, y: b.y + b.height + LABEL_HEIGHT + 3 },
      { x: b.x, y: b.y },
    ].map((s) => ({ ...s, x: Math.max(0, s.x), w }));
    const spot = spots.find((s) => !placed.some((p) => overlaps(s, p))) ?? spots[0];
    placed.push(spot);
    return { ref: b.ref, x: spot.x, y: spot.y };
  });
}
