import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import type { TestCounts } from '../../core/test-results.js';
import { messageLine } from './exception-site.js';

/**
 * A JUnit XML reader (pure: text in, data out), shared by the adapters whose runner writes JUnit
 * XML. The file is untrusted output of code under test: it is checked to be well-formed XML,
 * without a DOCTYPE (JUnit needs none, and entity declarations are a denial-of-service vector),
 * and its parsed shape is validated before use. Anything odd goes to `problems`, never to a pass.
 *
 * fast-xml-parser is used because it is maintained, dependency-free and has a validator.
 */

/** How one JUnit test case ended, by the element it holds (error outranks failure outranks skipped). */
export type JunitOutcome = 'passed' | 'failure' | 'error' | 'skipped';

/** One `<testcase>`, normalised. */
export interface JunitCase {
  /**
   * Made by `parseJunitXml`'s `idOf`; by default (pytestStyleCaseId):
   * `file::[Class::]name` when the case has a `file` attribute (the class part is what
   * `classname` adds to the file's dotted module path, so pytest ids equal pytest node ids);
   * `classname::name` when classname is not inside the file's module (a test inherited from
   * another module: the file is where it is defined, the classname where it runs);
   * otherwise `classname::name`, or `name` when classname is empty.
   */
  id: string;
  name: string;
  classname: string;
  file?: string;
  /** The `line` attribute as written (pytest's xunit1 lines are 0-based). */
  line?: number;
  outcome: JunitOutcome;
  /** First line of the outcome element's `message` attribute (at most 500 characters). */
  message?: string;
  /** The outcome element's `type` attribute. */
  type?: string;
  /** The outcome element's text (a traceback, usually). */
  detail?: string;
}

/** What a JUnit file says. */
export interface JunitReport {
  cases: JunitCase[];
  /** Totals from the innermost `<testsuite>` elements' tests/failures/errors/skipped attributes. */
  claimed?: TestCounts;
  problems: string[];
}

const ARRAYS = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);
const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  // Decodes numeric character references too (pytest writes newlines in attributes as &#10;).
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- moving to entityDecoder changes how untrusted XML is decoded: its own reviewed change
  htmlEntities: true,
  isArray: (name) => ARRAYS.has(name)
});

const text = z.string();
// An element without attributes or text parses to ''; with either, to an object.
const outcomeSchema = z.union([z.literal(''), z.object({ '@_message': text.optional(), '@_type': text.optional(), '#text': text.optional() })]);
const caseSchema = z.union([
  z.literal(''),
  z.object({
    '@_name': text.optional(),
    '@_classname': text.optional(),
    '@_file': text.optional(),
    '@_line': text.optional(),
    failure: z.array(outcomeSchema).optional(),
    error: z.array(outcomeSchema).optional(),
    skipped: z.array(outcomeSchema).optional()
  })
]);
interface Suite {
  '@_name'?: string | undefined;
  '@_tests'?: string | undefined;
  '@_failures'?: string | undefined;
  '@_errors'?: string | undefined;
  '@_skipped'?: string | undefined;
  testcase?: z.infer<typeof caseSchema>[] | undefined;
  testsuite?: (Suite | '')[] | undefined;
}
const suiteSchema: z.ZodType<Suite | ''> = z.lazy(() =>
  z.union([
    z.literal(''),
    z.object({
      '@_name': text.optional(),
      '@_tests': text.optional(),
      '@_failures': text.optional(),
      '@_errors': text.optional(),
      '@_skipped': text.optional(),
      testcase: z.array(caseSchema).optional(),
      testsuite: z.array(suiteSchema).optional()
    })
  ])
);
const documentSchema = z.union([
  // node's junit reporter writes top-level tests straight under <testsuites>.
  z.object({ testsuites: z.union([z.literal(''), z.object({ testsuite: z.array(suiteSchema).optional(), testcase: z.array(caseSchema).optional() })]) }),
  z.object({ testsuite: z.array(suiteSchema) })
]);

const COUNT = /^\d+$/;

/**
 * What a case id is made from: the case's fields, and the names of its enclosing `<testsuite>`
 * elements, outermost first (empty names left out).
 */
export type JunitCaseFields = Omit<JunitCase, 'id'> & { suites: readonly string[] };

/** The default id (see JunitCase.id). */
export function pytestStyleCaseId({ name, classname, file }: JunitCaseFields): string {
  if (file !== undefined && file !== '') {
    const module = file.replace(/\.py$/, '').split('/').join('.');
    // A test inherited from (or imported out of) another module: `file` is where it is defined,
    // `classname` where it runs. By the file alone every inheriting class would share one id
    // (tornado's httpclient_test.py tests run in two client test modules), so the running class's
    // dotted path names it instead.
    if (classname !== '' && classname !== module && !classname.startsWith(`${module}.`)) return `${classname}::${name}`;
    const inner = classname === '' || classname === module ? '' : classname.slice(module.length + 1);
    return inner === '' ? `${file}::${name}` : `${file}::${inner.split('.').join('::')}::${name}`;
  }
  return classname === '' ? name : `${classname}::${name}`;
}

function toCase(element: z.infer<typeof caseSchema>, suites: string[], idOf: (fields: JunitCaseFields) => string): JunitCase {
  const attributes = element === '' ? {} : element;
  const name = attributes['@_name'] ?? '';
  const classname = attributes['@_classname'] ?? '';
  const file = attributes['@_file'];
  const line = attributes['@_line'];
  const found = (['error', 'failure', 'skipped'] as const).flatMap((tag) => {
    const first = attributes[tag]?.[0];
    return first === undefined ? [] : [{ tag, element: first === '' ? {} : first }];
  })[0];
  const fields: Omit<JunitCase, 'id'> = {
    name,
    classname,
    ...(file === undefined ? {} : { file }),
    ...(line !== undefined && COUNT.test(line) ? { line: Number(line) } : {}),
    outcome: found === undefined ? 'passed' : found.tag
  };
  const base: JunitCase = { id: idOf({ ...fields, suites }), ...fields };
  if (found === undefined) {
    return base;
  }
  const message = messageLine(found.element['@_message']);
  const type = found.element['@_type'];
  const detail = found.element['#text'];
  return {
    ...base,
    ...(message === undefined ? {} : { message }),
    ...(type === undefined ? {} : { type }),
    ...(detail === undefined ? {} : { detail })
  };
}

/** Sums the counts of the innermost suites; undefined when any lacks a count. */
function claimedCounts(suites: readonly Suite[], problems: string[]): TestCounts | undefined {
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const suite of suites) {
    for (const key of ['tests', 'failures', 'errors', 'skipped'] as const) {
      const value = suite[`@_${key}`];
      if (value === undefined || !COUNT.test(value)) {
        return undefined;
      }
      total[key] += Number(value);
    }
  }
  const passed = total.tests - total.failures - total.errors - total.skipped;
  if (passed < 0) {
    problems.push(`the suites claim more failures, errors and skips (${total.failures + total.errors + total.skipped}) than tests (${total.tests})`);
    return undefined;
  }
  return { passed, failed: total.failures, errored: total.errors, skipped: total.skipped };
}

function unreadable(problem: string): JunitReport {
  return { cases: [], problems: [problem] };
}

/**
 * Parses a JUnit XML document (pure). `source` names the file in problems; `idOf` makes each case's
 * id (pytest's node-id form by default), and two cases with one id are a problem.
 */
export function parseJunitXml(xml: string, source = 'JUnit XML', idOf: (fields: JunitCaseFields) => string = pytestStyleCaseId): JunitReport {
  if (/<!DOCTYPE/i.test(xml)) {
    return unreadable(`${source} declares a DOCTYPE, which JUnit XML never needs`);
  }
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- its successor fast-xml-validator is a new dependency; swapping the well-formedness gate is its own reviewed change
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    return unreadable(`${source} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  }
  let value: unknown;
  try {
    value = PARSER.parse(xml);
  } catch (error) {
    return unreadable(`${source} could not be parsed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = documentSchema.safeParse(value);
  if (!parsed.success) {
    return unreadable(`${source} has no <testsuites> or <testsuite> root of the expected shape: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`);
  }
  const top = 'testsuites' in parsed.data ? (parsed.data.testsuites === '' ? {} : parsed.data.testsuites) : { testsuite: parsed.data.testsuite };
  const roots = top.testsuite ?? [];
  const problems: string[] = [];
  const innermost: Suite[] = [];
  const cases: JunitCase[] = [];
  const seen = new Set<string>();
  const take = (testcases: readonly z.infer<typeof caseSchema>[], suites: string[]): void => {
    for (const testcase of testcases) {
      const result = toCase(testcase, suites, idOf);
      if (result.name === '') {
        problems.push(`${source} has a <testcase> without a name`);
      } else if (seen.has(result.id)) {
        problems.push(`duplicate test id '${result.id}' in ${source}`);
      } else {
        seen.add(result.id);
        cases.push(result);
      }
    }
  };
  const visit = (suite: Suite | '', outer: string[]): void => {
    const element = suite === '' ? {} : suite;
    const children = element.testsuite ?? [];
    if (children.length === 0) {
      innermost.push(element);
    }
    const name = element['@_name'] ?? '';
    const suites = name === '' ? outer : [...outer, name];
    take(element.testcase ?? [], suites);
    children.forEach((child) => visit(child, suites));
  };
  take('testcase' in top ? (top.testcase ?? []) : [], []);
  roots.forEach((suite) => visit(suite, []));
  const claimed = claimedCounts(innermost, problems);
  return { cases, ...(claimed === undefined ? {} : { claimed }), problems };
}
