// What a cookbook shape is: a verified flow-script pattern with JSON-schema parameters.
// The codegen renders shapes into docs and runnable scripts; `gstack cookbook` runs them.
import type { EvidenceLabel } from '../driver/catalog.gen.js';

/** The JSON-schema subset the shapes use (validated with ajv, rendered into the docs). */
export interface ParamSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | Array<string>;
  description?: string;
  default?: unknown;
  pattern?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minProperties?: number;
  minItems?: number;
  maxItems?: number;
  items?: ParamSchema;
  properties?: Record<string, ParamSchema>;
  required?: string[];
  additionalProperties?: boolean | ParamSchema;
  not?: ParamSchema;
  const?: unknown;
  /** A condition on the value (JSON Schema if/then): `then` applies when `if` holds. */
  if?: ParamSchema;
  then?: ParamSchema;
}

export interface ShapeParams extends ParamSchema {
  type: 'object';
  properties: Record<string, ParamSchema>;
  required: string[];
  additionalProperties: false;
}

export interface Shape {
  /** CLI and file name: `gstack cookbook <name>`, generated/cookbook/<name>.js. */
  name: string;
  /** One line: what the shape is for. */
  summary: string;
  /** A short paragraph for the docs: what it does, step by step. */
  description: string;
  /** The catalog evidence labels the script prints (a test checks they exist in the catalog). */
  evidence: EvidenceLabel[];
  /** JSON schema of PARAMS; every non-required property has a default. */
  params: ShapeParams;
  /** Example parameters: the generated runnable script and the docs use them. */
  example: Record<string, unknown>;
  /** The script after the PARAMS block: plain flow-script JavaScript ending with the sentinel. */
  body: string;
}
