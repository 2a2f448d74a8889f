// `gstack cookbook list`: each shape and its parameters, one line each, from the JSON schemas.
import type { ParamSchema, Shape } from './types.js';

/** A short type for a parameter: `string`, `integer`, `A4|Letter`, `array`. */
export function paramType(p: ParamSchema): string {
  if (p.enum) return p.enum.map(String).join('|');
  return Array.isArray(p.type) ? p.type.join('|') : (p.type ?? 'any');
}

export function formatShapeList(shapes: readonly Shape[]): string {
  const out: string[] = [];
  for (const s of shapes) {
    out.push(`SHAPE ${s.name} ${s.summary}`);
    for (const [name, p] of Object.entries(s.params.properties)) {
      const req = s.params.required.includes(name) ? 'required' : `default ${JSON.stringify(p.default)}`;
      out.push(`  PARAM ${name} (${paramType(p)}, ${req}) ${p.description ?? ''}`.trimEnd());
    }
  }
  return out.join('\n') + '\n';
}
