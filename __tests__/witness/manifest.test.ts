import { ADAPTER_NAMES } from '../../src/adapters/registry.js';
import { ConfigurationError } from '../../src/errors.js';
import { parseWitnessManifest, WITNESS_SCHEMA, type WitnessManifest } from '../../src/fetch/witness/manifest.js';

const SOURCE = 'witness.json';
const minimal = { schema: WITNESS_SCHEMA, adapter: 'node-test' };

function parse(value: unknown): WitnessManifest {
  return parseWitnessManifest(value, SOURCE);
}

/** Parse and return the one-line refusal message, failing the test when there is none. */
function refusal(value: unknown): string {
  try {
    parse(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message.startsWith(SOURCE)).toBe(true);
    return message;
  }
  throw new Error('expected a refusal');
}

function withField(path: string, value: unknown): Record<string, unknown> {
  const [head, tail] = path.split('.') as [string, string | undefined];
  if (tail === undefined) return { ...minimal, [head]: value };
  return { ...minimal, [head]: { [tail]: value } };
}

describe('parseWitnessManifest defaults', () => {
  it('fills every default from a minimal manifest', () => {
    expect(parse(minimal)).toEqual({
      schema: 'patchproof.witness/v1',
      adapter: 'node-test',
      reproduction: { path: 'reproduction', placement: '.patchproof/reproduction', repeat: 2 },
      hidden: { path: 'hidden', placement: '.patchproof/hidden', repeat: 1 },
      regression: { exclude: [], retries: 1 },
      protected: [],
      allow: { test_edits: false, test_removal: false, skips: false, config_edits: false, dependency_changes: false, workflow_edits: false },
      limits: { timeout_seconds: 300, output_limit_bytes: 4194304, diff_max_bytes: 1048576, diff_max_files: 200 }
    });
  });

  it('fills the missing fields of a partly given object', () => {
    const manifest = parse({ ...minimal, reproduction: { repeat: 5 }, limits: { timeout_seconds: 60 }, allow: { skips: true } });
    expect(manifest.reproduction).toEqual({ path: 'reproduction', placement: '.patchproof/reproduction', repeat: 5 });
    expect(manifest.limits).toEqual({ timeout_seconds: 60, output_limit_bytes: 4194304, diff_max_bytes: 1048576, diff_max_files: 200 });
    expect(manifest.allow).toEqual({ test_edits: false, test_removal: false, skips: true, config_edits: false, dependency_changes: false, workflow_edits: false });
  });

  it('keeps every field given', () => {
    const full = {
      schema: WITNESS_SCHEMA,
      adapter: 'unittest',
      reproduction: { path: 'tests/repro', placement: 'tests/witness_repro', repeat: 10, expected_failing: ['a.B.test_x', 'a.B.test_y'] },
      hidden: { path: 'tests/hidden', placement: '.patchproof/hidden-tests', repeat: 3 },
      regression: { include: ['tests/**/test_*.py'], exclude: ['tests/slow/**'], retries: 3 },
      protected: ['setup.cfg', '.github/**'],
      allow: { test_edits: true, test_removal: true, skips: true, config_edits: true, dependency_changes: true, workflow_edits: true },
      limits: { timeout_seconds: 86400, output_limit_bytes: 1, diff_max_bytes: 10, diff_max_files: 1 }
    };
    expect(parse(full)).toEqual(full);
  });

  it('does not change its input', () => {
    const input = { ...minimal, reproduction: { repeat: 3 } };
    parse(input);
    expect(input).toEqual({ ...minimal, reproduction: { repeat: 3 } });
  });
});

describe('parseWitnessManifest refusals', () => {
  it('refuses what is not an object', () => {
    expect(refusal(null)).toMatch(/is not a witness manifest \(it is null\); expected a JSON object/);
    expect(refusal([])).toMatch(/it is an empty list/);
    expect(refusal('x')).toMatch(/it is 'x'/);
  });

  it('refuses a missing or wrong schema tag', () => {
    expect(refusal({ adapter: 'node-test' })).toBe(`${SOURCE}: schema is missing; expected "patchproof.witness/v1".`);
    expect(refusal({ ...minimal, schema: 'patchproof.witness/v2' })).toBe(`${SOURCE}: schema is 'patchproof.witness/v2'; expected "patchproof.witness/v1".`);
  });

  it('refuses a missing or unknown adapter, naming the accepted ones', () => {
    const accepted = ADAPTER_NAMES.map((name) => `"${name}"`).join(', ');
    expect(accepted).toContain('"node-test", "pytest", "unittest"');
    expect(refusal({ schema: WITNESS_SCHEMA })).toBe(`${SOURCE}: adapter is missing; expected one of ${accepted}.`);
    expect(refusal({ ...minimal, adapter: 'mocha' })).toBe(`${SOURCE}: adapter is 'mocha'; expected one of ${accepted}.`);
  });

  it.each([
    [
      '',
      { ...minimal, extra: 1 },
      'unknown field extra; expected only schema, adapter, reproduction, hidden, regression, protected, allowed_paths, allow, limits, junit, oracle, formal, build, setup, env, tamper_allow'
    ],
    ['reproduction', withField('reproduction.paths', 'x'), 'unknown field reproduction.paths; expected only path, placement, repeat, expected_failing, ids'],
    ['hidden', withField('hidden.expected_failing', ['x']), 'unknown field hidden.expected_failing; expected only path, placement, repeat, ids'],
    ['regression', withField('regression.retry', 1), 'unknown field regression.retry; expected only include, exclude, retries'],
    [
      'allow',
      withField('allow.everything', true),
      'unknown field allow.everything; expected only test_edits, test_removal, skips, config_edits, dependency_changes, workflow_edits'
    ],
    ['limits', withField('limits.memory', 1), 'unknown field limits.memory; expected only timeout_seconds, output_limit_bytes, diff_max_bytes, diff_max_files']
  ])('refuses an unknown key in %s', (_where, value, message) => {
    expect(refusal(value)).toBe(`${SOURCE}: ${message}.`);
  });

  it.each([
    ['reproduction', 'x', "reproduction is 'x'; expected an object with path, placement, repeat, expected_failing and ids, all optional"],
    ['hidden', null, 'hidden is null; expected an object with path, placement, repeat and ids, all optional'],
    ['regression', [], 'regression is an empty list; expected an object with include, exclude and retries, all optional'],
    ['allow', true, 'allow is true; expected an object with test_edits'],
    ['limits', 1, 'limits is 1; expected an object with timeout_seconds'],
    ['protected', 'src/**', "protected is 'src/**'; expected a list of glob patterns of repository paths"],
    ['reproduction.path', '', "reproduction.path is ''; expected a pack-relative folder"],
    ['hidden.path', 3, 'hidden.path is 3; expected a pack-relative folder'],
    ['reproduction.placement', false, 'reproduction.placement is false; expected a repository-relative folder'],
    ['reproduction.repeat', 0, 'reproduction.repeat is 0; expected a whole number from 1 to 10'],
    ['reproduction.repeat', 11, 'reproduction.repeat is 11; expected a whole number from 1 to 10'],
    ['hidden.repeat', 1.5, 'hidden.repeat is 1.5; expected a whole number from 1 to 10'],
    ['reproduction.expected_failing', [], 'reproduction.expected_failing is an empty list; expected a non-empty list of distinct test ids'],
    ['reproduction.expected_failing', 'x', "reproduction.expected_failing is 'x'; expected a non-empty list"],
    ['regression.include', [], "regression.include is an empty list; expected a non-empty list of glob patterns; omit it to run the adapter's own suite"],
    ['regression.exclude', {}, 'regression.exclude is an object; expected a list of glob patterns'],
    ['regression.retries', -1, 'regression.retries is -1; expected a whole number from 0 to 3'],
    ['regression.retries', 4, 'regression.retries is 4; expected a whole number from 0 to 3'],
    ['allow.test_edits', 'yes', "allow.test_edits is 'yes'; expected true or false"],
    ['allow.test_removal', 1, 'allow.test_removal is 1; expected true or false'],
    ['allow.skips', null, 'allow.skips is null; expected true or false'],
    ['allow.config_edits', 0, 'allow.config_edits is 0; expected true or false'],
    ['allow.dependency_changes', 'false', "allow.dependency_changes is 'false'; expected true or false"],
    ['limits.timeout_seconds', 0, 'limits.timeout_seconds is 0; expected a whole number of seconds from 1 to 86400'],
    ['limits.timeout_seconds', 86401, 'limits.timeout_seconds is 86401; expected a whole number of seconds from 1 to 86400'],
    ['limits.output_limit_bytes', 0, 'limits.output_limit_bytes is 0; expected a whole number of bytes, at least 1'],
    ['limits.diff_max_bytes', 2.5, 'limits.diff_max_bytes is 2.5; expected a whole number of bytes, at least 1'],
    ['limits.diff_max_files', '200', "limits.diff_max_files is '200'; expected a whole number of files, at least 1"]
  ])('refuses %s = %j', (path, value, message) => {
    expect(refusal(withField(path, value))).toContain(`${SOURCE}: ${message}`);
  });

  it('names the element of a list', () => {
    expect(refusal({ ...minimal, reproduction: { expected_failing: ['ok', ''] } })).toBe(
      `${SOURCE}: reproduction.expected_failing[1] is ''; expected a test id: a non-empty string.`
    );
    expect(refusal({ ...minimal, protected: ['a', 7] })).toBe(`${SOURCE}: protected[1] is 7; expected a glob pattern.`);
  });

  it('refuses a duplicate expected failing id', () => {
    expect(refusal({ ...minimal, reproduction: { expected_failing: ['a', 'b', 'a'] } })).toMatch(/reproduction\.expected_failing lists 'a' twice/);
  });

  it.each([
    ['/abs', 'is absolute'],
    ['../up', "contains '..'"],
    ['a/./b', "has a '.' component"],
    ['a//b', 'has an empty component'],
    ['a/', 'has an empty component'],
    ['a\\b', 'contains a backslash'],
    ['.git/x', "has a '.git' component"],
    ['.patchproof/x', "is under '.patchproof/'"]
  ])('refuses the pack path %j', (path, problem) => {
    expect(refusal({ ...minimal, reproduction: { path } })).toContain(`reproduction.path '${path}' ${problem}`);
  });

  it.each([
    ['/abs', 'is absolute'],
    ['../outside', "contains '..'"],
    ['.git/hooks', "has a '.git' component"],
    ['sub/.GIT/x', "has a '.git' component"],
    ['.patchproof', "is PatchProof's own '.patchproof' folder"],
    ['.patchproof/', "is PatchProof's own '.patchproof' folder"],
    ['.patchproof/../x', "contains '..'"],
    ['.patchproof/harness', "overlaps '.patchproof/harness', where PatchProof stages its harness"],
    ['.patchproof/Harness/x', "overlaps '.patchproof/harness', where PatchProof stages its harness"],
    ['C:/x', 'is absolute']
  ])('refuses the placement %j', (placement, problem) => {
    expect(refusal({ ...minimal, hidden: { placement } })).toMatch(new RegExp(`hidden\\.placement '.*' ${escape(problem)}; expected a repository-relative folder`));
  });

  it('accepts placements under .patchproof and elsewhere in the repository', () => {
    expect(parse({ ...minimal, reproduction: { placement: '.patchproof/r' }, hidden: { placement: 'tests/hidden' } }).hidden.placement).toBe('tests/hidden');
  });

  it.each([
    [{ placement: '.patchproof/tests' }, { placement: '.patchproof/tests' }, 'hidden.placement'],
    [{ placement: '.patchproof/tests' }, { placement: '.patchproof/tests/hidden' }, 'hidden.placement'],
    [{ placement: 'tests/a/b' }, { placement: 'Tests/A' }, 'hidden.placement'],
    [{ path: 'tests' }, { path: 'tests' }, 'hidden.path'],
    [{ path: 'tests' }, { path: 'tests/hidden' }, 'hidden.path']
  ])('refuses overlapping reproduction %j and hidden %j', (reproduction, hidden, field) => {
    expect(refusal({ ...minimal, reproduction, hidden })).toMatch(
      new RegExp(`${escape(field)} .* overlaps reproduction\\.\\w+ .*; expected separate folders for the two test sets\\.$`)
    );
  });

  it('accepts sibling folders with a shared name prefix', () => {
    expect(() => parse({ ...minimal, reproduction: { path: 'tests', placement: 'x/tests' }, hidden: { path: 'tests2', placement: 'x/tests2' } })).not.toThrow();
  });

  it.each([
    ['', 'is empty'],
    ['[abc', 'does not compile (Missing closing: "]"'],
    ['src/{a,b', 'does not compile (Missing closing: "}"'],
    ['+(a|b', 'does not compile (Missing closing: ")"'],
    ['!src/**', 'is a negation'],
    ['/etc/**', 'is absolute'],
    ['../x/**', "has a '.', '..' or empty segment"],
    ['./x', "has a '.', '..' or empty segment"],
    ['a//b', "has a '.', '..' or empty segment"],
    ['a\\*', 'contains a backslash'],
    ['a\u0000b', 'contains a control character']
  ])('refuses the glob %j', (glob, problem) => {
    for (const [field, value] of [
      ['protected[0]', { ...minimal, protected: [glob] }],
      ['regression.include[1]', { ...minimal, regression: { include: ['ok/**', glob] } }],
      ['regression.exclude[0]', { ...minimal, regression: { exclude: [glob] } }]
    ] as const) {
      const message = refusal(value);
      expect(message).toContain(`${field} `);
      expect(message).toContain(problem);
      expect(message).toMatch(/expected a repository-relative glob such as 'src\/\*\*\/\*\.ts'/);
    }
  });

  it('accepts the globs picomatch compiles', () => {
    const globs = ['src/**/*.ts', '.github/**', '**/test_*.py', 'tests/{unit,integration}/**', '*.+(js|mjs)', 'a/[bc]/d'];
    expect(parse({ ...minimal, protected: globs }).protected).toEqual(globs);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('parseWitnessManifest: tamper_allow', () => {
  it('reads the tamper-screen rules a pack allows for named paths', () => {
    const manifest = parse({ ...minimal, tamper_allow: [{ rule: 'env_argv_read', paths: ['src/config.js', 'lib/**'] }] });
    expect(manifest.tamper_allow).toEqual([{ rule: 'env_argv_read', paths: ['src/config.js', 'lib/**'] }]);
    expect(parse(minimal).tamper_allow).toBeUndefined();
  });

  it.each([
    ['unparsed, which is never allowed', [{ rule: 'unparsed', paths: ['**'] }], /tamper_allow\[0\]\.rule.*unparsed cannot be allowed/],
    ['an unknown rule', [{ rule: 'everything', paths: ['**'] }], /tamper_allow\[0\]\.rule/],
    ['no paths', [{ rule: 'monkeypatch', paths: [] }], /tamper_allow\[0\]\.paths/],
    ['an absolute glob', [{ rule: 'monkeypatch', paths: ['/etc/**'] }], /tamper_allow\[0\]\.paths\[0\].*is absolute/],
    ['a negation', [{ rule: 'monkeypatch', paths: ['!src/**'] }], /tamper_allow\[0\]\.paths\[0\].*negation/],
    ['an unknown key', [{ rule: 'monkeypatch', paths: ['**'], why: 'x' }], /tamper_allow\[0\]/]
  ])('refuses %s', (_what, value, message) => {
    expect(refusal({ ...minimal, tamper_allow: value })).toMatch(message);
  });
});

describe('parseWitnessManifest: oracle', () => {
  const base = { schema: 'patchproof.witness/v1', adapter: 'unittest' };
  it('takes a pack-relative oracle file outside the staged folders', () => {
    expect(parseWitnessManifest({ ...base, oracle: { expected: 'oracle/expected.json' } }, 'witness.json').oracle).toEqual({ expected: 'oracle/expected.json' });
  });
  it.each([
    ['hidden/expected.json', /lies in 'hidden', which is staged into every copy/],
    ['reproduction/x/e.json', /lies in 'reproduction'/],
    ['../expected.json', /oracle.expected/]
  ])('refuses %s', (expected, message) => {
    expect(() => parseWitnessManifest({ ...base, oracle: { expected } }, 'witness.json')).toThrow(message);
  });
});

describe('pinned ids', () => {
  it('reads reproduction.ids and hidden.ids, refusing duplicates and expected_failing outside the pin', () => {
    const base = { schema: 'patchproof.witness/v1', adapter: 'unittest' };
    const ok = parseWitnessManifest({ ...base, reproduction: { ids: ['a', 'b'], expected_failing: ['a'] }, hidden: { ids: ['h'] } }, 'witness.json');
    expect(ok.reproduction.ids).toEqual(['a', 'b']);
    expect(ok.hidden.ids).toEqual(['h']);
    expect(() => parseWitnessManifest({ ...base, hidden: { ids: ['h', 'h'] } }, 'witness.json')).toThrow(/hidden\.ids.*twice/);
    expect(() => parseWitnessManifest({ ...base, reproduction: { ids: ['a'], expected_failing: ['z'] } }, 'witness.json')).toThrow(/not among reproduction\.ids/);
    expect(() => parseWitnessManifest({ ...base, hidden: { ids: [] } }, 'witness.json')).toThrow();
  });
});
