// Where an annotated screenshot draws its ref labels (driver/runtime/label-placement.ts): a
// crowded toolbar's labels covered one another (trial V25: `e119` under `e123` read `e11`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LABEL_HEIGHT, labelWidth, placeLabels, type Box } from '../driver/runtime/label-placement.js';

const overlap = (a: { ref: string; x: number; y: number }, b: { ref: string; x: number; y: number }) =>
  a.x < b.x + labelWidth(b.ref) && b.x < a.x + labelWidth(a.ref) && a.y < b.y + LABEL_HEIGHT && b.y < a.y + LABEL_HEIGHT;

test('a lone element\'s label sits just above its top-left corner', () => {
  assert.deepEqual(placeLabels([{ ref: 'e12', x: 40, y: 100, width: 80, height: 30 }]), [{ ref: 'e12', x: 40, y: 84 }]);
});

test('a row of small icon buttons gets labels that cover no other label, each beside its own button', () => {
  const boxes: Box[] = Array.from({ length: 10 }, (_, i) => ({ ref: `e${119 + i}`, x: 300 + i * 22, y: 60, width: 20, height: 20 }));
  const labels = placeLabels(boxes);
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) assert.ok(!overlap(labels[i], labels[j]), `${labels[i].ref} and ${labels[j].ref} overlap: ${JSON.stringify([labels[i], labels[j]])}`);
    const b = boxes[i];
    // Near its own button: within a label's size of the element's box.
    assert.ok(labels[i].x >= b.x - 1 && labels[i].x <= b.x + b.width + 2 && Math.abs(labels[i].y - b.y) <= b.height + 2 * LABEL_HEIGHT + 4, JSON.stringify([labels[i], b]));
  }
});

test('labels stay on the page at its top and left edges', () => {
  const [l] = placeLabels([{ ref: 'e1', x: -5, y: 0, width: 40, height: 20 }]);
  assert.ok(l.x >= 0 && l.y >= 0, JSON.stringify(l));
});
