import { z } from 'zod';

/**
 * Reading the node-test reporter's JSON-lines file (see node-test-reporter.ts): each line checked
 * against the reporter's shape, the test events put back into node's test tree, and node's own
 * closing totals. Untrusted text in, validated data out.
 */

/** Result file the reporter writes, relative to the results directory. */
export const NODE_TEST_RESULTS_FILE = 'node-test.jsonl';

const flagSchema = z.union([z.boolean(), z.string()]).optional();
const errorSchema = z.object({
  name: z.string().optional(),
  code: z.string().optional(),
  failureType: z.string().optional(),
  message: z.string().optional(),
  exitCode: z.number().int().optional(),
  signal: z.string().optional(),
  cause: z.object({ name: z.string().optional(), code: z.string().optional(), message: z.string().optional(), stack: z.string().optional() }).optional()
});
const lineSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start'), format: z.string(), node: z.string() }),
  z.object({
    kind: z.literal('test'),
    event: z.enum(['pass', 'fail']),
    name: z.string(),
    nesting: z.number().int().nonnegative(),
    file: z.string().optional(),
    line: z.number().int().optional(),
    column: z.number().int().optional(),
    suite: z.boolean(),
    skip: flagSchema,
    todo: flagSchema,
    duration_ms: z.number().optional(),
    error: errorSchema.optional(),
    stderr: z.array(z.string()).optional()
  }),
  z.object({ kind: z.literal('diagnostic'), nesting: z.number().int(), file: z.string().optional(), message: z.string() }),
  z.object({ kind: z.literal('end'), format: z.string(), tests: z.number().int(), diagnostics: z.number().int() })
]);

/** One validated line of the results file. */
export type ReporterLine = z.infer<typeof lineSchema>;
/** A test:pass or test:fail event. */
export type TestLine = Extract<ReporterLine, { kind: 'test' }>;
/** A test:diagnostic event. */
export type DiagnosticLine = Extract<ReporterLine, { kind: 'diagnostic' }>;

/** A test with the tests nested in it. */
export interface TestNode {
  event: TestLine;
  children: TestNode[];
}

/** Node's own totals, from its closing diagnostics. */
export interface NodeTotals {
  tests: number;
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
  todo: number;
}

/** The lines of the results file that have the reporter's shape; each other line adds a problem. */
export function readLines(text: string, problems: string[]): ReporterLine[] {
  const lines: ReporterLine[] = [];
  const raw = text.split('\n');
  if (raw.at(-1) === '') {
    raw.pop();
  }
  raw.forEach((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${NODE_TEST_RESULTS_FILE} line ${index + 1} is not JSON`);
      return;
    }
    const parsed = lineSchema.safeParse(value);
    if (parsed.success) {
      lines.push(parsed.data);
    } else {
      problems.push(`${NODE_TEST_RESULTS_FILE} line ${index + 1} is malformed: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
    }
  });
  return lines;
}

/**
 * Rebuilds node's test tree from its post-order events. The whole run is one process (see
 * node-test-entry.ts) whose root tests run one after another, so the events form a single stream;
 * it is not split by file because a subtest defined in a helper module names that module as its file.
 */
export function buildTrees(events: readonly TestLine[], problems: string[]): TestNode[] {
  const pending = new Map<number, TestNode[]>();
  const roots: TestNode[] = [];
  for (const event of events) {
    const node: TestNode = { event, children: pending.get(event.nesting + 1) ?? [] };
    pending.delete(event.nesting + 1);
    if (event.nesting === 0) {
      roots.push(node);
    } else {
      pending.set(event.nesting, [...(pending.get(event.nesting) ?? []), node]);
    }
  }
  for (const [nesting, nodes] of pending) {
    problems.push(`${nodes.length} test(s) at nesting ${nesting} were never closed by a parent`);
  }
  return roots;
}

/** Node's closing totals (top-level `tests N`, `pass N`... diagnostics), when all six are there. */
export function readTotals(diagnostics: readonly DiagnosticLine[]): NodeTotals | undefined {
  const found = new Map<string, number>();
  for (const diagnostic of diagnostics) {
    const match = /^(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(diagnostic.message);
    if (diagnostic.nesting === 0 && diagnostic.file === undefined && match?.[1] !== undefined && match[2] !== undefined) {
      found.set(match[1], Number(match[2]));
    }
  }
  const [tests, pass, fail, cancelled, skipped, todo] = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map((key) => found.get(key));
  if (tests === undefined || pass === undefined || fail === undefined || cancelled === undefined || skipped === undefined || todo === undefined) {
    return undefined;
  }
  return { tests, pass, fail, cancelled, skipped, todo };
}
