import { z } from 'zod';
import type { ClaimCase, ClaimKey, ParsedClaim } from '../core/claim.js';
import type { TestStatus } from '../core/test-results.js';
import type { AdapterName } from './adapter.js';
import { parseJunitXml, pytestStyleCaseId, type JunitCaseFields, type JunitOutcome } from './junit-xml.js';

/**
 * Reads the agent's claim (pure: the file's text in, claimed tests out): JUnit XML (through the
 * same parser the adapters use, src/adapters/junit-xml.ts), jest's or vitest's `--json` report, or
 * `go test -json`'s event stream. The claim is the agent's own output, untrusted: it is bounded
 * (CLAIM_MAX_BYTES, CLAIM_MAX_TESTS) and a claim that does not parse is refused in one line. Each
 * claimed test carries the keys by which it may be found among the adapter's clean-room ids; the
 * mapping per adapter is docs/claim.md.
 */

/** A claim file larger than this is refused. */
export const CLAIM_MAX_BYTES = 8 * 1024 * 1024;
/** A claim with more tests than this is refused. */
export const CLAIM_MAX_TESTS = 50_000;

/** Why a claim cannot be read: one line, for a ConfigurationError naming the flag or input. */
export class ClaimFormatError extends Error {}

const JUNIT_STATUS: Record<JunitOutcome, TestStatus> = { passed: 'passed', failure: 'failed', error: 'errored', skipped: 'skipped' };

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** A dotted pytest classname `a.b.C` as the node ids pytest could have made of it: `a/b.py::C::name`, `a.py::b::C::name`, … */
function pytestKeys(fields: JunitCaseFields): ClaimKey[] {
  const keys: ClaimKey[] = [{ kind: 'id', id: pytestStyleCaseId(fields) }];
  const parts = fields.classname === '' ? [] : fields.classname.split('.');
  for (let split = parts.length; split >= 1; split -= 1) {
    const file = `${parts.slice(0, split).join('/')}.py`;
    keys.push({ kind: 'id', id: [file, ...parts.slice(split), fields.name].join('::') });
  }
  return keys;
}

/**
 * JS ids are `<file> > <describe>… > <test>`: by the file attribute, by a file-path classname (vitest),
 * or by the full name: jest-junit writes it as the case's name (its suite is named after the file's
 * first describe, so the suites are tried second), node's reporter nests suites and names the leaf.
 */
function jsKeys({ name, classname, file, suites }: JunitCaseFields, nestedSuites: boolean): ClaimKey[] {
  const keys: ClaimKey[] = [];
  if (file !== undefined && file !== '') keys.push({ kind: 'path', path: file, rest: name.split(' > ') });
  if (/\.[cm]?[jt]sx?$/.test(classname)) keys.push({ kind: 'path', path: classname, rest: name.split(' > ') });
  const nested: ClaimKey = { kind: 'full', text: [...suites, name].join(' ') };
  const flat: ClaimKey = { kind: 'full', text: name };
  keys.push(...(nestedSuites ? [nested, flat] : [flat, nested]));
  return keys;
}

/** The keys one JUnit case may match under `adapter`'s ids (docs/claim.md). */
export function junitClaimKeys(adapter: AdapterName, fields: JunitCaseFields): ClaimKey[] {
  const dotted = fields.classname === '' ? fields.name : `${fields.classname}.${fields.name}`;
  switch (adapter) {
    case 'pytest':
      return pytestKeys(fields);
    case 'unittest':
      return [{ kind: 'id', id: dotted }];
    case 'jest':
    case 'vitest':
      return jsKeys(fields, false);
    case 'node-test':
      return jsKeys(fields, true);
    case 'go':
      // gotestsum: the classname is the package's import path, the name the test (with its subtests).
      return [{ kind: 'id', id: `${fields.classname}/${fields.name}` }];
    case 'cargo':
      // cargo-nextest: the classname is the binary id (the crate for its library), the name the test path.
      return [{ kind: 'id', id: `lib:${fields.classname}::${fields.name}` }, { kind: 'id', id: `${fields.classname}::${fields.name}` }];
    case 'junit': {
      const rest = [...fields.suites, dotted];
      return [
        ...(fields.file !== undefined && fields.file !== '' ? [{ kind: 'path', path: fields.file, rest } as const] : []),
        { kind: 'id', id: rest.join(' > ') }
      ];
    }
  }
}

function parseJunitClaim(text: string, adapter: AdapterName): ClaimCase[] {
  const fieldsById = new Map<string, JunitCaseFields>();
  let next = 0;
  // Ids by position: the claim may repeat a name (the clean room decides what it means), so no duplicate is refused here.
  const report = parseJunitXml(text, 'the claim', (fields) => {
    const id = String(next++);
    fieldsById.set(id, fields);
    return id;
  });
  if (report.problems.length > 0 && report.cases.length === 0) throw new ClaimFormatError(oneLine(report.problems[0] ?? 'unreadable JUnit XML'));
  const unnamed = report.problems.find((problem) => problem.includes('without a name'));
  if (unnamed !== undefined) throw new ClaimFormatError(oneLine(unnamed));
  return report.cases.map((test) => {
    const fields = fieldsById.get(test.id)!;
    const label = fields.file !== undefined && fields.file !== '' ? `${fields.file}::${fields.classname === '' ? '' : `${fields.classname}::`}${fields.name}` : pytestStyleCaseId(fields);
    return { label, status: JUNIT_STATUS[test.outcome], keys: junitClaimKeys(adapter, fields) };
  });
}

// jest's --json report, and vitest's json reporter (which writes the same shape).
const jestJsonSchema = z.object({
  testResults: z.array(
    z.object({
      name: z.string().min(1),
      status: z.string(),
      assertionResults: z.array(z.object({ ancestorTitles: z.array(z.string()), title: z.string(), status: z.string() }))
    })
  )
});

function jestStatus(status: string): TestStatus {
  if (status === 'passed') return 'passed';
  if (status === 'failed') return 'failed';
  if (status === 'pending' || status === 'skipped' || status === 'todo' || status === 'disabled') return 'skipped';
  return 'errored';
}

function parseJestJsonClaim(value: unknown): ClaimCase[] {
  const parsed = jestJsonSchema.safeParse(value);
  if (!parsed.success) throw new ClaimFormatError(`JSON, but not a jest/vitest --json report: ${oneLine(z.prettifyError(parsed.error))}`);
  return parsed.data.testResults.flatMap((file): ClaimCase[] => {
    const tests = file.assertionResults.map((test) => ({
      label: [file.name, ...test.ancestorTitles, test.title].join(' > '),
      status: jestStatus(test.status),
      keys: [{ kind: 'path', path: file.name, rest: [...test.ancestorTitles, test.title] } as const]
    }));
    // A file that failed to run at all: the clean room names such a file's failure by the file.
    if (tests.length === 0 && file.status === 'failed') return [{ label: file.name, status: 'errored', keys: [{ kind: 'path', path: file.name, rest: [] }] }];
    return tests;
  });
}

const goEventSchema = z.object({ Action: z.string(), Package: z.string().optional(), Test: z.string().optional() });

function parseGoJsonClaim(text: string): ClaimCase[] {
  const final = new Map<string, { pkg: string; test: string; status: TestStatus }>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ClaimFormatError(`line ${index + 1} of a go test -json stream is not JSON`);
    }
    const event = goEventSchema.safeParse(value);
    if (!event.success) throw new ClaimFormatError(`line ${index + 1} is not a go test -json event`);
    const { Action, Package, Test } = event.data;
    if (Package === undefined || Test === undefined) return;
    const status: TestStatus | undefined = Action === 'pass' ? 'passed' : Action === 'fail' ? 'failed' : Action === 'skip' ? 'skipped' : undefined;
    if (status !== undefined) final.set(`${Package}/${Test}`, { pkg: Package, test: Test, status });
  });
  const ids = [...final.keys()];
  // The clean room leaves out a parent test that has subtests, as go-results.ts does.
  return [...final.entries()]
    .filter(([id]) => !ids.some((other) => other.startsWith(`${id}/`)))
    .map(([id, test]) => ({ label: id, status: test.status, keys: [{ kind: 'id', id }] }));
}

/** Parse a claim; throws ClaimFormatError (one line) when it is none of the formats or over its bounds. */
export function parseClaim(text: string, adapter: AdapterName): ParsedClaim {
  if (Buffer.byteLength(text, 'utf8') > CLAIM_MAX_BYTES) throw new ClaimFormatError(`larger than ${CLAIM_MAX_BYTES} bytes`);
  const start = text.trimStart();
  let claim: ParsedClaim;
  if (start.startsWith('<')) {
    claim = { format: 'junit', cases: parseJunitClaim(text, adapter) };
  } else if (start.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (value !== undefined) {
      claim = { format: 'jest-json', cases: parseJestJsonClaim(value) };
    } else {
      claim = { format: 'go-json', cases: parseGoJsonClaim(text) };
    }
  } else {
    throw new ClaimFormatError('neither JUnit XML, a jest/vitest --json report, nor a go test -json stream');
  }
  if (claim.cases.length === 0) throw new ClaimFormatError('it holds no test');
  if (claim.cases.length > CLAIM_MAX_TESTS) throw new ClaimFormatError(`more than ${CLAIM_MAX_TESTS} tests`);
  return claim;
}
