// The cookbook: every verified flow-script shape, and how a shape plus parameters becomes a
// self-contained script (the one `gstack cookbook <shape>` runs and the codegen writes out).
import { UsageError } from '../driver/errors.js';
import { createRequire } from 'node:module';
import type { Shape } from './types.js';
import { read } from './read.js';
import { flow } from './flow.js';
import { annotated } from './annotated.js';
import { responsive } from './responsive.js';
import { links } from './links.js';
import { perf } from './perf.js';
import { pdf } from './pdf.js';
import { elementShot } from './element-shot.js';
import { form } from './form.js';

export type { Shape, ShapeParams, ParamSchema } from './types.js';

/** In the order the docs and `gstack cookbook list` show them. */
export const SHAPES: readonly Shape[] = [read, flow, annotated, responsive, links, perf, pdf, elementShot, form];

/** Parameters a shape's schema refuses (exit USAGE). */
export class ShapeParamsError extends UsageError {}

export function findShape(name: string): Shape | undefined {
  return SHAPES.find((s) => s.name === name);
}

type Validator = ((data: unknown) => boolean) & { errors?: Array<{ instancePath: string; schemaPath?: string; keyword?: string; message?: string; params?: Record<string, unknown> }> | null };
const validators = new Map<string, Validator>();

function validatorFor(shape: Shape): Validator {
  let v = validators.get(shape.name);
  if (!v) {
    const require = createRequire(import.meta.url);
    const Ajv = require('ajv') as typeof import('ajv').default;
    // useDefaults fills every omitted parameter, so the script's PARAMS block is complete.
    const ajv = new Ajv({ allErrors: true, useDefaults: true, allowUnionTypes: true });
    v = ajv.compile(shape.params) as Validator;
    validators.set(shape.name, v);
  }
  return v;
}

/** The properties a `not: { required: [...] }` at this schema path forbids together. */
function forbiddenPair(shape: Shape, schemaPath: string | undefined): string | undefined {
  let node: unknown = shape.params;
  for (const key of (schemaPath ?? '').replace(/^#\//, '').split('/')) node = (node as Record<string, unknown> | undefined)?.[key];
  const required = (node as { required?: string[] } | undefined)?.required;
  return required?.length ? required.join(' and ') : undefined;
}

/** Validates parameters against the shape's JSON schema; returns them with defaults filled in. */
export function resolveParams(shape: Shape, params: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(params);
  const validate = validatorFor(shape);
  if (!validate(copy)) {
    // An if/then failure is reported twice: the missing property, then 'must match "then"
    // schema', which says nothing more; keep the first.
    const problems = (validate.errors ?? []).filter((e) => e.keyword !== 'if').map((e) => {
      const extra = e.params?.additionalProperty ? ` "${String(e.params.additionalProperty)}"` : '';
      // ajv says "must NOT be valid" for a `not`; the only `not` the shapes use forbids a pair.
      const message = e.keyword === 'not' ? `must not have both ${forbiddenPair(shape, e.schemaPath) ?? 'of its options'}` : e.message;
      return `${e.instancePath ? 'params' + e.instancePath.replace(/\//g, '.') : 'params'} ${message ?? 'is invalid'}${extra}`;
    });
    throw new ShapeParamsError(
      `Invalid parameters for cookbook shape "${shape.name}": ${problems.join('; ')}. ` +
        `\`gstack cookbook list\` shows each shape's parameters.`,
    );
  }
  // Schema order, whatever order the caller gave: the PARAMS block reads the same every time.
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(shape.params.properties)) if (key in copy) ordered[key] = copy[key];
  return ordered;
}

/** The complete flow script for a shape: a header, the PARAMS block, then the shape's body.
 * PARAMS takes the call's own `params` over its values, so the printed script runs with
 * `--params` and saves as a flow whose `--param`s reach it (pass 43, A43: it held only
 * literals, and a flow saved from it ignored its parameters). A `cookbook` call gives none. */
export function buildScript(shape: Shape, params: Record<string, unknown>): string {
  const resolved = resolveParams(shape, params);
  return [
    `// gstack cookbook "${shape.name}": ${shape.summary}`,
    `// Prints: ${shape.evidence.join(' ')}`,
    `// Runs unchanged on both engines: gstack run -f ${shape.name}.js. What a call is given replaces a`,
    `// value below: gstack run -f ${shape.name}.js --params '{"url":"…"}', or saved as a flow, --param url=….`,
    `const PARAMS = Object.assign(${JSON.stringify(resolved, null, 2)}, params);`,
    '',
    shape.body,
  ].join('\n');
}
