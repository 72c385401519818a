import picomatch from 'picomatch';
import { GO_SKIP_MARKERS, GO_SURFACE, goPackageFolders, goSuiteFiles, isGoTestFile } from '../../src/adapters/go/files.js';

describe('go files', () => {
  it('recognises the _test.go files the go command compiles', () => {
    expect(['calc_test.go', 'pkg/calc_test.go', 'internal/x/y_test.go'].map(isGoTestFile)).toEqual([true, true, true]);
    expect(['calc.go', 'test_calc.go', '_calc_test.go', '.calc_test.go', 'testdata/x_test.go', '_build/x_test.go', 'calc_test.go.txt'].map(isGoTestFile)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false
    ]);
  });

  it('chooses the suite as `go test ./...` would: no vendor, testdata, dot or underscore folders, nested modules or .patchproof', () => {
    const paths = [
      'go.mod',
      'calc_test.go',
      'calc.go',
      'pkg/a/a_test.go',
      'pkg/a/b_test.go',
      'vendor/example.com/dep/dep_test.go',
      'pkg/testdata/fixture_test.go',
      '.github/x_test.go',
      '_examples/e_test.go',
      'tools/go.mod',
      'tools/gen/gen_test.go',
      '.patchproof/reproduction/repro_test.go'
    ];
    const suite = goSuiteFiles(paths);
    expect(suite).toEqual(['calc_test.go', 'pkg/a/a_test.go', 'pkg/a/b_test.go']);
    expect(goPackageFolders(suite)).toEqual(['', 'pkg/a']);
  });

  it('puts test files and testdata on the test surface; go.mod, go.sum and vendor are dependencies', () => {
    const isTest = picomatch(GO_SURFACE.tests as string[], { dot: true });
    const isConfig = picomatch(GO_SURFACE.config as string[], { dot: true });
    const isDependency = picomatch(GO_SURFACE.dependencies as string[], { dot: true });
    expect(['calc_test.go', 'pkg/a_test.go', 'testdata/in.txt', 'pkg/testdata/golden/out.json'].every((file) => isTest(file))).toBe(true);
    expect(isTest('calc.go')).toBe(false);
    expect(['go.work', '.github/workflows/ci.yml'].every((file) => isConfig(file))).toBe(true);
    expect(['go.mod', 'go.sum', 'tools/go.mod', 'vendor/modules.txt', 'vendor/example.com/dep/dep.go'].every((file) => isDependency(file))).toBe(true);
    expect(isDependency('calc.go')).toBe(false);
  });

  it('finds lines that skip a test or leave a test file out of the build', () => {
    const marked = (line: string): boolean => GO_SKIP_MARKERS.some((re) => re.test(line));
    expect(['\tt.Skip("flaky")', '\tt.SkipNow()', '\tb.Skipf("no %s", what)', '\tif testing.Short() {', '//go:build ignore', '// +build ignore'].every(marked)).toBe(true);
    expect(['\tt.Run("skip list", func(t *testing.T) {})', '\tskipped := 0', '\t// we never Skip here', '\tt.Errorf("go:build")'].some(marked)).toBe(false);
  });
});
