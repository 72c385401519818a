import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';

/**
 * GitHub's published REST API description (the `@octokit/openapi` package), loaded once per
 * process, with just enough machinery to match a request to an operation and validate it.
 *
 * The description is OpenAPI 3.0.3, so its schemas are OpenAPI 3.0 Schema Objects (`nullable`,
 * no type arrays): the default Ajv class (draft-07) understands them; the 2020-12 class does not
 * apply.
 */

// ajv and ajv-formats are CommonJS; under NodeNext the default import is the module object.
const Ajv = AjvModule.default;
const addFormats = formatsModule.default;

/** A JSON value as it appears in the description. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** One parameter of an operation, with `$ref`s already resolved. */
export interface OpenApiParameter {
  /** Parameter name as written in the path template or query string. */
  name: string;
  /** Where the parameter travels. */
  in: 'path' | 'query' | 'header' | 'cookie';
  /** Whether the request must carry it. */
  required: boolean;
  /** The parameter's schema (may still contain `$ref`s into components). */
  schema: JsonObject;
  /** GitHub's extension: a path parameter that may contain `/` (a git ref). */
  multiSegment: boolean;
}

/** An operation of the description, found by method and path template. */
export interface OpenApiOperation {
  /** Upper-case HTTP method. */
  method: string;
  /** The path template, e.g. `/repos/{owner}/{repo}/check-runs`. */
  template: string;
  /** GitHub's operation id, e.g. `checks/create`. */
  operationId: string;
  /** Path and query parameters (header and cookie parameters are not validated). */
  parameters: OpenApiParameter[];
  /** JSON request body schema, when the operation takes one. */
  bodySchema: JsonObject | undefined;
  /** Whether the body is required. */
  bodyRequired: boolean;
  /** GitHub's documentation page for the operation (sent back in error bodies, as GitHub does). */
  docsUrl: string;
}

/** A request matched to an operation. */
export interface RouteMatch {
  /** The operation the request addresses. */
  operation: OpenApiOperation;
  /** Path parameters, percent-decoded, still strings. */
  pathParams: Record<string, string>;
}

/** What a validator needs to know about one request. */
export interface RequestParts {
  /** Path parameters as matched (strings). */
  pathParams: Record<string, string>;
  /** Query parameters (the last value wins for repeated keys). */
  query: Record<string, string>;
  /** The parsed JSON body, or `undefined` when the request had none. */
  body: unknown;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface CompiledRoute {
  operation: OpenApiOperation;
  regex: RegExp;
  names: string[];
  literalLength: number;
}

interface Description {
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    examples: Record<string, JsonObject>;
  };
}

let description: Description | undefined;
let routes: CompiledRoute[] | undefined;
const validators = new Map<string, ValidateFunction>();

function asObject(value: Json | undefined): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/** A field of the description as text: String() of a scalar, as before; an object or array as JSON, not "[object Object]". */
function text(value: Json | undefined): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The parsed api.github.com description (13 MB; parsed on first use, then cached). */
export function gitHubDescription(): Description {
  if (description === undefined) {
    const require = createRequire(import.meta.url);
    // The package's index.js would load every GHES variant too (hundreds of MB): read one file.
    const file = require.resolve('@octokit/openapi/generated/api.github.com.json');
    description = JSON.parse(readFileSync(file, 'utf8')) as Description;
  }
  return description;
}

function resolveRef(node: JsonObject): JsonObject {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  const parts = ref.replace(/^#\//, '').split('/');
  let target: Json = gitHubDescription() as unknown as Json;
  for (const part of parts) target = asObject(target)[part.replace(/~1/g, '/').replace(/~0/g, '~')] ?? null;
  if (target === null) throw new Error(`Unresolvable $ref ${ref}`);
  return resolveRef(asObject(target));
}

function buildOperation(method: string, template: string, raw: JsonObject, shared: Json[]): OpenApiOperation {
  const parameters: OpenApiParameter[] = [];
  const rawParams = [...shared, ...(Array.isArray(raw['parameters']) ? raw['parameters'] : [])];
  for (const entry of rawParams) {
    const p = resolveRef(asObject(entry));
    parameters.push({
      name: text(p['name']),
      in: p['in'] as OpenApiParameter['in'],
      required: p['required'] === true,
      schema: asObject(p['schema']),
      multiSegment: p['x-multi-segment'] === true
    });
  }
  let bodySchema: JsonObject | undefined;
  let bodyRequired = false;
  if (raw['requestBody'] !== undefined) {
    const body = resolveRef(asObject(raw['requestBody']));
    const json = asObject(asObject(body['content'])['application/json']);
    if (json['schema'] !== undefined) bodySchema = asObject(json['schema']);
    bodyRequired = body['required'] === true;
  }
  return {
    method: method.toUpperCase(),
    template,
    operationId: text(raw['operationId']),
    parameters,
    bodySchema,
    bodyRequired,
    docsUrl: text(asObject(raw['externalDocs'] ?? null)['url'] ?? 'https://docs.github.com/rest')
  };
}

function compileRoutes(): CompiledRoute[] {
  if (routes !== undefined) return routes;
  const doc = gitHubDescription();
  const built: CompiledRoute[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const shared = Array.isArray(item['parameters']) ? (item['parameters'] as unknown as Json[]) : [];
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (raw === undefined) continue;
      const operation = buildOperation(method, template, raw, shared);
      const names: string[] = [];
      let literalLength = 0;
      const pattern = template
        .split(/(\{[^}]+\})/)
        .map((piece) => {
          const m = /^\{([^}]+)\}$/.exec(piece);
          if (m === null) {
            literalLength += piece.length;
            return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          }
          const name = m[1] as string;
          names.push(name);
          const multi = operation.parameters.some((p) => p.name === name && p.multiSegment);
          return multi ? '(.+)' : '([^/]+)';
        })
        .join('');
      built.push({ operation, regex: new RegExp(`^${pattern}$`), names, literalLength });
    }
  }
  // Prefer the most literal template: `/actions/runs/{run_id}` must not swallow a literal route.
  built.sort((a, b) => b.literalLength - a.literalLength);
  routes = built;
  return built;
}

/** Finds the operation for a method and a raw (still percent-encoded) path, if the description has one. */
export function matchRoute(method: string, rawPath: string): RouteMatch | undefined {
  const upper = method.toUpperCase();
  for (const route of compileRoutes()) {
    if (route.operation.method !== upper) continue;
    const m = route.regex.exec(rawPath);
    if (m === null) continue;
    const pathParams: Record<string, string> = {};
    route.names.forEach((name, i) => {
      pathParams[name] = decodeURIComponent(m[i + 1] as string);
    });
    return { operation: route.operation, pathParams };
  }
  return undefined;
}

/** Whether any method is described for this path (to tell 404 from 405-like mistakes). */
export function pathExists(rawPath: string): boolean {
  return compileRoutes().some((r) => r.regex.test(rawPath));
}

/**
 * Copies a schema with every reachable `#/components/schemas/X` turned into `#/definitions/X`,
 * carrying only the definitions it needs, so Ajv compiles a small self-contained schema.
 */
export function selfContained(root: JsonObject, closeObjects = false): JsonObject {
  const doc = gitHubDescription();
  const needed = new Map<string, JsonObject>();
  const prefix = '#/components/schemas/';
  const rewrite = (node: Json, close: boolean): Json => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, close));
    if (node === null || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
        const name = value.slice(prefix.length);
        if (!needed.has(name)) {
          needed.set(name, {});
          needed.set(name, asObject(rewrite(doc.components.schemas[name] ?? null, close)));
        }
        out[key] = `#/definitions/${name}`;
      } else if (key === 'example' || key === 'examples' || key === 'description') {
        continue;
      } else if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        // Property names are data, not keywords: rewrite each property's schema, not the map itself.
        const props: JsonObject = {};
        for (const [name, schema] of Object.entries(value)) props[name] = rewrite(schema, close);
        out[key] = props;
      } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
        // A closed object inside a combinator would reject its siblings' properties.
        out[key] = rewrite(value, false);
      } else {
        out[key] = rewrite(value, close);
      }
    }
    // GitHub means `nullable` + `enum` to allow null (its examples carry `conclusion: null`), but
    // OpenAPI 3.0.3 says null must then be listed in the enum; Ajv follows the letter.
    if (out['nullable'] === true && Array.isArray(out['enum']) && !out['enum'].includes(null)) {
      out['enum'] = [...out['enum'], null];
    }
    if (close && out['properties'] !== undefined && out['additionalProperties'] === undefined) {
      out['additionalProperties'] = false;
    }
    // `nullable` beside a combinator and no `type` (the installation schema's `account`): Ajv refuses
    // to compile it, so say it as JSON Schema does, "this or null".
    if (out['nullable'] === true && out['type'] === undefined) {
      const { nullable: _nullable, ...rest } = out;
      return { anyOf: [rest, { type: 'null' }] };
    }
    return out;
  };
  const body = asObject(rewrite(root, closeObjects));
  return { ...body, definitions: Object.fromEntries(needed) };
}

function ajvInstance(coerce: boolean): InstanceType<typeof Ajv> {
  // strict off: the description carries OpenAPI keywords (`nullable`, `x-github`) unknown to JSON Schema.
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: coerce, logger: false });
  addFormats(ajv);
  // OpenAPI formats with no JSON Schema meaning; GitHub's integers are int32/int64.
  for (const name of ['int32', 'int64', 'repo.nwo', 'uri-template', 'binary']) ajv.addFormat(name, true);
  return ajv;
}

let plainAjv: InstanceType<typeof Ajv> | undefined;
let coercingAjv: InstanceType<typeof Ajv> | undefined;

function validator(key: string, schema: () => JsonObject, coerce: boolean): ValidateFunction {
  const cached = validators.get(key);
  if (cached !== undefined) return cached;
  const ajv = coerce ? (coercingAjv ??= ajvInstance(true)) : (plainAjv ??= ajvInstance(false));
  const compiled = ajv.compile(schema());
  validators.set(key, compiled);
  return compiled;
}

function describe(where: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` '${String((e.params as { additionalProperty?: string }).additionalProperty)}'`
        : e.keyword === 'enum'
          ? ` ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}`
          : '';
    return `${where}${e.instancePath} ${e.message ?? e.keyword}${extra}`;
  });
}

function parameterSchema(op: OpenApiOperation, where: 'path' | 'query'): JsonObject {
  const params = op.parameters.filter((p) => p.in === where);
  const properties: JsonObject = {};
  for (const p of params) properties[p.name] = p.schema;
  return selfContained({
    type: 'object',
    properties,
    required: params.filter((p) => p.required).map((p) => p.name),
    // Unknown query parameters are ignored by GitHub, which hides typos: reject them here.
    additionalProperties: false
  });
}

/**
 * Validates a request against its operation: path parameters, query parameters and the JSON body.
 * Bodies are checked with every described object closed (`additionalProperties: false`) unless
 * `allowUnknownFields` is set — stricter than GitHub, which ignores unknown fields, so that a
 * misspelt optional field fails a test instead of silently doing nothing.
 * Returns human-readable error lines; an empty array means valid.
 */
export function validateRequest(op: OpenApiOperation, parts: RequestParts, allowUnknownFields = false): string[] {
  const key = `${op.method} ${op.template}`;
  const errors: string[] = [];
  const path = { ...parts.pathParams };
  const checkPath = validator(`${key} path`, () => parameterSchema(op, 'path'), true);
  if (!checkPath(path)) errors.push(...describe('path', checkPath.errors));
  const query = { ...parts.query };
  const checkQuery = validator(`${key} query`, () => parameterSchema(op, 'query'), true);
  if (!checkQuery(query)) errors.push(...describe('query', checkQuery.errors));
  if (op.bodySchema === undefined) {
    if (parts.body !== undefined) errors.push('body: this operation takes no request body');
  } else if (parts.body === undefined) {
    if (op.bodyRequired) errors.push('body: a JSON request body is required');
  } else {
    const bodySchema = op.bodySchema;
    const checkBody = validator(`${key} body ${allowUnknownFields ? 'open' : 'closed'}`, () => selfContained(bodySchema, !allowUnknownFields), false);
    if (!checkBody(parts.body)) errors.push(...describe('body', checkBody.errors));
  }
  return errors;
}

/**
 * Validates a response body against the schema the description gives for that status, so the
 * test server's own answers stay faithful to GitHub's. Returns error lines; empty means valid
 * (or that the description gives no JSON schema for the status).
 */
export function validateResponse(op: OpenApiOperation, status: number, body: unknown): string[] {
  const raw = gitHubDescription().paths[op.template]?.[op.method.toLowerCase()];
  const response = asObject(asObject(raw?.['responses'] ?? null)[String(status)]);
  if (Object.keys(response).length === 0) {
    // GitHub answers 401/404 on any route without describing it everywhere; a 2xx must be described.
    return status < 400 ? [`response: status ${status} is not described for ${op.operationId}`] : [];
  }
  const resolved = resolveRef(response);
  const schema = asObject(asObject(asObject(resolved['content'])['application/json'])['schema']);
  if (Object.keys(schema).length === 0) return [];
  const check = validator(`${op.method} ${op.template} response ${status}`, () => selfContained(schema), false);
  return check(body) ? [] : describe('response', check.errors);
}

/** A named example from the description's components (e.g. `pull-request`), deep-copied. */
export function describedExample(name: string): JsonObject {
  const example = gitHubDescription().components.examples[name];
  if (example === undefined) throw new Error(`The description has no example named ${name}`);
  return JSON.parse(JSON.stringify(example['value'])) as JsonObject;
}
