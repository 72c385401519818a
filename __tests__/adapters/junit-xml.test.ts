import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJunitXml } from '../../src/adapters/shared/junit-xml.js';
import { DATA_DIR } from './data/run-adapter.js';

/** Real JUnit XML written by pytest 7.2 for data/pytest-project (timestamp and hostname removed). */
function realXml(family: 'xunit1' | 'xunit2'): string {
  return readFileSync(path.join(DATA_DIR, 'junit', `pytest-${family}.xml`), 'utf8');
}

describe('parseJunitXml on real pytest output', () => {
  it('reads every test case, with file-based ids that equal pytest node ids (xunit1)', () => {
    const report = parseJunitXml(realXml('xunit1'));
    expect(report.problems).toEqual([]);
    expect(report.cases.map((test) => test.id)).toEqual([
      'tests/test_missing_import.py::tests.test_missing_import',
      'tests/test_syntax.py::tests.test_syntax',
      'tests/test_cases.py::test_passes',
      'tests/test_cases.py::test_assertion',
      'tests/test_cases.py::test_code_raises',
      'tests/test_cases.py::test_test_raises',
      'tests/test_cases.py::test_fixture_fails',
      'tests/test_cases.py::test_skipped',
      'tests/test_cases.py::test_expected_failure',
      'tests/test_cases.py::test_unexpected_success',
      'tests/test_cases.py::test_pytest_fail',
      'tests/test_cases.py::TestGrouped::test_in_class'
    ]);
  });

  it('tells failure, error and skipped apart, keeping the first message line, type and detail', () => {
    const cases = new Map(parseJunitXml(realXml('xunit1')).cases.map((test) => [test.name, test]));
    // As written: pytest's xunit1 lines are 0-based (the def is on line 11).
    expect(cases.get('test_passes')).toMatchObject({ outcome: 'passed', file: 'tests/test_cases.py', line: 10 });
    expect(cases.get('test_passes')?.message).toBeUndefined();
    expect(cases.get('test_assertion')).toMatchObject({ outcome: 'failure', message: 'assert 2.0 == 3' });
    expect(cases.get('test_assertion')?.detail).toContain('AssertionError: assert 2.0 == 3');
    expect(cases.get('test_fixture_fails')).toMatchObject({ outcome: 'error', message: 'failed on setup with "OSError: no fixtures directory"' });
    expect(cases.get('test_skipped')).toMatchObject({ outcome: 'skipped', type: 'pytest.skip', message: 'not today' });
    expect(cases.get('test_expected_failure')).toMatchObject({ outcome: 'skipped', type: 'pytest.xfail', message: 'known bug' });
    expect(cases.get('tests.test_syntax')).toMatchObject({ outcome: 'error', message: 'collection failure' });
  });

  it("reports the suite's own counts as claimed", () => {
    expect(parseJunitXml(realXml('xunit1')).claimed).toEqual({ passed: 2, failed: 5, errored: 3, skipped: 2 });
  });

  it('uses classname::name when there is no file attribute (xunit2)', () => {
    const report = parseJunitXml(realXml('xunit2'));
    expect(report.problems).toEqual([]);
    expect(report.cases.map((test) => test.id)).toContain('tests.test_cases::test_passes');
    expect(report.cases.map((test) => test.id)).toContain('tests.test_cases.TestGrouped::test_in_class');
    expect(report.cases.map((test) => test.id)).toContain('tests.test_missing_import');
  });
});

describe('parseJunitXml fails closed', () => {
  it('reports truncated XML as a problem, with no cases', () => {
    const xml = realXml('xunit1');
    const report = parseJunitXml(xml.slice(0, Math.floor(xml.length / 2)), 'pytest.xml');
    expect(report.cases).toEqual([]);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(/^pytest\.xml is not well-formed XML/);
  });

  it('reports a document without a JUnit root', () => {
    const report = parseJunitXml('<?xml version="1.0"?><results><test name="a"/></results>');
    expect(report.cases).toEqual([]);
    expect(report.problems[0]).toMatch(/no <testsuites> or <testsuite> root/);
    expect(parseJunitXml('').problems).toHaveLength(1);
  });

  it('refuses a DOCTYPE (entity expansion)', () => {
    const report = parseJunitXml('<!DOCTYPE x [<!ENTITY a "aaaa">]><testsuite tests="1"><testcase name="&a;"/></testsuite>');
    expect(report.cases).toEqual([]);
    expect(report.problems[0]).toMatch(/DOCTYPE/);
  });

  it('reports duplicate ids, keeping the first', () => {
    const xml = realXml('xunit1').replace('name="test_assertion"', 'name="test_passes"');
    const report = parseJunitXml(xml, 'pytest.xml');
    expect(report.problems).toEqual(["duplicate test id 'tests/test_cases.py::test_passes' in pytest.xml"]);
    expect(report.cases.find((test) => test.id === 'tests/test_cases.py::test_passes')?.outcome).toBe('passed');
  });

  it('rejects attributes of the wrong shape (elements where text belongs)', () => {
    const report = parseJunitXml('<testsuites><testsuite tests="1"><testcase><name>x</name></testcase></testsuite></testsuites>');
    expect(report.cases).toEqual([]);
    expect(report.problems).toHaveLength(1);
  });

  it('drops claimed counts that contradict themselves, as a problem', () => {
    const report = parseJunitXml('<testsuite tests="1" failures="2" errors="0" skipped="0"><testcase classname="a" name="b"/></testsuite>');
    expect(report.claimed).toBeUndefined();
    expect(report.problems[0]).toMatch(/claim more failures/);
    expect(report.cases.map((test) => test.id)).toEqual(['a::b']);
  });

  it('reads a bare <testsuite> root and nested suites, counting only the innermost', () => {
    const xml =
      '<testsuite tests="3" failures="1" errors="0" skipped="0"><testsuite tests="2" failures="1" errors="0" skipped="0">' +
      '<testcase classname="a" name="x"/><testcase classname="a" name="y"><failure message="boom&#10;more" type="Err">trace</failure></testcase>' +
      '</testsuite><testsuite tests="1" failures="0" errors="0" skipped="1"><testcase classname="b" name="z"><skipped/></testcase></testsuite></testsuite>';
    const report = parseJunitXml(xml);
    expect(report.problems).toEqual([]);
    expect(report.cases).toEqual([
      { id: 'a::x', name: 'x', classname: 'a', outcome: 'passed' },
      { id: 'a::y', name: 'y', classname: 'a', outcome: 'failure', message: 'boom', type: 'Err', detail: 'trace' },
      { id: 'b::z', name: 'z', classname: 'b', outcome: 'skipped' }
    ]);
    expect(report.claimed).toEqual({ passed: 1, failed: 1, errored: 0, skipped: 1 });
  });
});
