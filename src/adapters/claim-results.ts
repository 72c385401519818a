import { z } from 'zod';
import type { ClaimCase, ClaimKey, ParsedClaim } from '../core/claim.js';
import type { TestStatus } from '../core/test-results.js';
import type { AdapterName } from './registry.js';
import { parseJunitXml, pytestStyleCaseId, type JunitCaseFields, type JunitOutcome } from './shared/junit-xml.js';

/**
 * Reads the agent's claim (pure: the file's text in, claimed tests out): JUnit XML (through the
 * same parser the adapters use, src/adapters/shared/junit-xml.ts), jest's or vitest's `--json` report, or
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

/**
 * cargo-nextest's JUnit: the classname is the binary id, the name the test path. Binary ids are
 * `<crate>` (the library), `<crate>::<test target>` (an integration test, `tests/x.rs`), and
 * `<crate>::<kind>/<target>` (`bin/tool`, `example/x`, `bench/x`); the clean room's ids are
 * `lib:<crate>::…`, `test:<target>::…`, `bin:<target>::…`.
 */
function nextestKeys({ classname, name }: JunitCaseFields): ClaimKey[] {
  const keys: ClaimKey[] = [];
  const split = classname.indexOf('::');
  if (split < 0) keys.push({ kind: 'id', id: `lib:${classname}::${name}` });
  else {
    const binary = classname.slice(split + 2);
    const kinded = /^(bin|example|bench)\/(.+)$/.exec(binary);
    keys.push({ kind: 'id', id: kinded !== null ? `${kinded[1]}:${kinded[2]}::${name}` : `test:${binary}::${name}` });
  }
  keys.push({ kind: 'id', id: `${classname}::${name}` });
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
      return nextestKeys(fields);
    case 'junit': {
      const rest = [...fields.suites, dotted];
      return [...(fields.file !== undefined && fields.file !== '' ? [{ kind: 'path', path: fields.file, rest } as const] : []), { kind: 'id', id: rest.join(' > ') }];
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
    const label =
      fields.file !== undefined && fields.file !== '' ? `${fields.file}::${fields.classname === '' ? '' : `${fields.classname}::`}${fields.name}` : pytestStyleCaseId(fields);
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

/** A `Running …` line of `cargo test` (stderr): the target's source and its test binary. */
const CARGO_RUNNING = /^\s*Running (unittests )?(\S+) \((.+)\)\s*$/;
/** A libtest result line (stdout). */
const CARGO_TEST_LINE = /^test (\S.*?) \.\.\. (ok|FAILED|ignored)(?:, .*)?\s*$/;
const CARGO_DOC_TESTS = /^\s*Doc-tests (\S+)\s*$/;

/**
 * The target ids a `Running` line may stand for: `kind:name` as the cargo adapter names targets.
 * The binary is `<crate name with _>-<hash>`; a test or bin target's own name is its file's stem
 * (which may keep a `-`), the library's the crate name.
 */
function cargoTargets(unittests: boolean, source: string, binary: string): string[] {
  const crate = (binary.split('/').pop() ?? '').replace(/-[0-9a-f]{16}$/, '');
  const stem = (source.split('/').pop() ?? '').replace(/\.rs$/, '');
  const kinds: [RegExp, string][] = [
    [/^tests\//, 'test'],
    [/^benches\//, 'bench'],
    [/^examples\//, 'example']
  ];
  for (const [pattern, kind] of kinds) if (pattern.test(source)) return [`${kind}:${stem}`, `${kind}:${crate}`];
  if (unittests && (source === 'src/main.rs' || /^src\/bin\//.test(source))) {
    const named = /^src\/bin\/([^/]+)(?:\/main)?\.rs$/.exec(source)?.[1];
    return [...new Set([...(named !== undefined ? [`bin:${named}`] : []), `bin:${crate}`, `bin:${crate.replace(/_/g, '-')}`])];
  }
  return [`lib:${crate}`];
}

/**
 * `cargo test`'s own output, stdout and stderr together (`cargo test > claim.txt 2>&1`): each
 * `Running` line names the target whose `test … ... ok` lines follow. Doc tests are claimed under
 * `doc:<crate>::…`, which no clean-room id has. Refused: a result line before any `Running` line.
 */
function parseCargoTestClaim(text: string): ClaimCase[] {
  let targets: string[] | undefined;
  let doc: string | undefined;
  const cases: ClaimCase[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const running = CARGO_RUNNING.exec(line);
    if (running !== null) {
      targets = cargoTargets(running[1] !== undefined, running[2] as string, running[3] as string);
      doc = undefined;
      continue;
    }
    const docTests = CARGO_DOC_TESTS.exec(line);
    if (docTests !== null) {
      doc = docTests[1];
      continue;
    }
    const result = CARGO_TEST_LINE.exec(line);
    if (result === null) continue;
    const path = result[1] as string;
    const status: TestStatus = result[2] === 'ok' ? 'passed' : result[2] === 'FAILED' ? 'failed' : 'skipped';
    if (doc !== undefined) {
      cases.push({ label: `doc:${doc}::${path}`, status, keys: [] });
      continue;
    }
    if (targets === undefined)
      throw new ClaimFormatError(`line ${index + 1} is a test result before any "Running" line: give cargo test's stdout and stderr together (cargo test > claim.txt 2>&1)`);
    cases.push({ label: `${targets[0]}::${path}`, status, keys: targets.map((target) => ({ kind: 'id', id: `${target}::${path}` })) });
  }
  return cases;
}

/** Does the text look like `cargo test`'s output (a `Running` line, or libtest's `running N tests`)? */
function isCargoTestOutput(text: string): boolean {
  return /^\s*Running (unittests )?\S+ \(.+\)\s*$/m.test(text) || /^running \d+ tests?$/m.test(text);
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
  } else if (adapter === 'cargo' && isCargoTestOutput(text)) {
    claim = { format: 'cargo-test', cases: parseCargoTestClaim(text) };
  } else {
    throw new ClaimFormatError('neither JUnit XML, a jest/vitest --json report, nor a go test -json stream');
  }
  if (claim.cases.length === 0) throw new ClaimFormatError('it holds no test');
  if (claim.cases.length > CLAIM_MAX_TESTS) throw new ClaimFormatError(`more than ${CLAIM_MAX_TESTS} tests`);
  return claim;
}
