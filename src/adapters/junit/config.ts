/**
 * The `junit` block of a witness manifest: how the generic JUnit adapter runs a test runner it does
 * not know (the pack gives the argv), where the runner writes its JUnit XML, which files are tests,
 * and the pack's own canary tests. Pure: the checks and the argv expansion live here.
 */

/** The pack's grader canaries: a folder of tests in the runner's own framework, and their ids. */
export interface JunitCanaryConfig {
  /** Pack-relative folder holding one must-pass and one must-fail test (and any helper files). */
  path: string;
  /** Result id of the test that must pass. */
  pass: string;
  /** Result id of the test that must fail with an assertion. */
  fail: string;
}

/** The `junit` block, as parsed and checked. */
export interface JunitConfig {
  /** The test command; see JUNIT_PLACEHOLDERS. No shell is implied. */
  argv: string[];
  /** Glob (picomatch) of the JUnit XML files, relative to the results folder; every match is read. */
  report: string;
  /** Globs (picomatch) of test files: repository-relative for the suite, folder-relative for the pack's tests. */
  tests: string[];
  canary: JunitCanaryConfig;
}

/**
 * Placeholders of `argv`: `{workdir}` (the copy root as the test process sees it) and `{results}`
 * (the results folder) are replaced wherever they occur in an element; `{files}` must be a whole
 * element, exactly once, and becomes one element per test file (repository-relative, the pack's
 * canary tests last).
 */
export const JUNIT_PLACEHOLDERS = { workdir: '{workdir}', results: '{results}', files: '{files}' } as const;

/** Where the pack's canary folder is staged in every copy (so its tests import `../../../src/x.js`). */
export const JUNIT_CANARY_DIR = 'canary';

/** Why an argv cannot be used, or undefined. */
export function junitArgvProblem(argv: readonly string[]): string | undefined {
  if (argv.length === 0) return 'is empty';
  const first = argv[0] ?? '';
  if (first === '' || first.includes('{')) return 'does not start with a program name';
  const files = argv.filter((element) => element === JUNIT_PLACEHOLDERS.files).length;
  if (argv.some((element) => element !== JUNIT_PLACEHOLDERS.files && element.includes(JUNIT_PLACEHOLDERS.files))) {
    return `has ${JUNIT_PLACEHOLDERS.files} inside a longer element (it must be an element of its own)`;
  }
  if (files !== 1) return `has ${JUNIT_PLACEHOLDERS.files} ${files === 0 ? 'nowhere' : `${files} times`} (exactly once is needed, or the tests would not run)`;
  if (argv.some((element) => element.includes('\u0000'))) return 'has a NUL character';
  return undefined;
}

/** What the placeholders stand for in one run. */
export interface JunitArgvValues {
  workdir: string;
  results: string;
  files: readonly string[];
}

/** The argv with its placeholders replaced (see JUNIT_PLACEHOLDERS). */
export function expandJunitArgv(argv: readonly string[], values: JunitArgvValues): string[] {
  return argv.flatMap((element) =>
    element === JUNIT_PLACEHOLDERS.files
      ? [...values.files]
      : [element.split(JUNIT_PLACEHOLDERS.workdir).join(values.workdir).split(JUNIT_PLACEHOLDERS.results).join(values.results)]
  );
}
