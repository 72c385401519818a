import picomatch from 'picomatch';
import { cargoAdapter } from '../../src/adapters/cargo/index.js';
import {
  cargoCanaryFallbackPath,
  cargoCanaryFallbackSource,
  cargoModuleFile,
  cargoModuleName,
  cargoTargetName,
  cargoTargetPath,
  cargoTargetSource,
  rustString
} from '../../src/adapters/cargo/entry.js';
import { CARGO_SKIP_MARKERS, CARGO_SURFACE, cargoSuiteFiles, isCargoTestFile } from '../../src/adapters/cargo/files.js';
import { CARGO_HARNESS_FILE } from '../../src/adapters/cargo/harness.js';
import { canaryNames, canaryRunOrder } from '../../src/adapters/shared/canary.js';
import { ConfigurationError } from '../../src/errors.js';

const PLAN = { nonce: '0123456789abcdef' + 'fedcba9876543210' + '00112233445566778899aabbccddeef1' };

describe('cargo test files', () => {
  it('treats top-level .rs files and <dir>/main.rs as external test files, like cargo’s tests/ folder', () => {
    expect(isCargoTestFile('clip.rs')).toBe(true);
    expect(isCargoTestFile('wide/main.rs')).toBe(true);
    expect(isCargoTestFile('common/mod.rs')).toBe(false);
    expect(isCargoTestFile('common/helpers.rs')).toBe(false);
    expect(isCargoTestFile('a/b/main.rs')).toBe(false);
    expect(isCargoTestFile('notes.md')).toBe(false);
    expect(isCargoTestFile('clip.rs.orig')).toBe(false);
  });

  it('finds the suite’s sources: src/**/*.rs and integration test roots, only with a root Cargo.toml', () => {
    const tree = [
      'Cargo.toml',
      'Cargo.lock',
      'README.md',
      'build.rs',
      'src/lib.rs',
      'src/parse/mod.rs',
      'src/bin/tool.rs',
      'tests/columns.rs',
      'tests/common/mod.rs',
      'tests/wide/main.rs',
      'benches/speed.rs',
      'examples/demo.rs',
      'target/debug/build/x.rs',
      '.patchproof/reproduction/x.rs'
    ];
    expect(cargoSuiteFiles(tree)).toEqual(['src/bin/tool.rs', 'src/lib.rs', 'src/parse/mod.rs', 'tests/columns.rs', 'tests/wide/main.rs']);
    expect(cargoSuiteFiles(tree.filter((file) => file !== 'Cargo.toml'))).toEqual([]);
  });

  it('puts tests, benches, manifests, lockfiles, build scripts and toolchain files on the test surface', () => {
    const isTest = picomatch([...CARGO_SURFACE.tests], { dot: true });
    const isConfig = picomatch([...CARGO_SURFACE.config], { dot: true });
    const isDependency = picomatch([...CARGO_SURFACE.dependencies], { dot: true });
    expect(isTest('tests/columns.rs')).toBe(true);
    expect(isTest('tests/common/mod.rs')).toBe(true);
    expect(isTest('benches/speed.rs')).toBe(true);
    expect(isTest('src/lib.rs')).toBe(false);
    for (const file of ['Cargo.toml', 'build.rs', '.cargo/config.toml', 'rust-toolchain.toml', 'rust-toolchain', '.github/workflows/ci.yml']) {
      expect(isConfig(file)).toBe(true);
    }
    expect(isConfig('src/build.rs')).toBe(false);
    expect(isDependency('Cargo.toml')).toBe(true);
    expect(isDependency('Cargo.lock')).toBe(true);
    expect(isDependency('src/lib.rs')).toBe(false);
  });

  it('spots added lines that ignore, expect a panic or compile a test out', () => {
    const marked = (line: string): boolean => CARGO_SKIP_MARKERS.some((marker) => marker.test(line));
    for (const line of [
      '#[ignore]',
      '    #[ignore = "flaky on CI"]',
      '#[should_panic]',
      '#[should_panic(expected = "boom")]',
      '#[cfg_attr(target_os = "linux", ignore)]',
      '#[cfg(any())]',
      '#[cfg(not(all()))]',
      '#![cfg(feature = "never")]',
      '#![cfg(windows)]'
    ]) {
      expect([line, marked(line)]).toEqual([line, true]);
    }
    for (const line of ['#[test]', '#[cfg(test)]', 'fn ignore_case() {}', 'let ignored = 3;', '// should panic when empty', '#[cfg(unix)]']) {
      expect([line, marked(line)]).toEqual([line, false]);
    }
  });
});

describe('the generated test target', () => {
  it('is named from the nonce, under tests/', () => {
    expect(cargoTargetName(PLAN)).toBe(`patchproof_${PLAN.nonce}`);
    expect(cargoTargetPath(PLAN)).toBe(`tests/patchproof_${PLAN.nonce}.rs`);
    expect(cargoCanaryFallbackPath(PLAN)).toBe(`.patchproof/harness/patchproof_canary_${PLAN.nonce}.rs`);
    expect(() => cargoTargetName({ nonce: 'short' })).toThrow(ConfigurationError);
  });

  it('names a module after its file, reversibly, and refuses names that are not such modules', () => {
    for (const file of ['.patchproof/reproduction/clip.rs', 'tests/hidden/wide/main.rs', '.patchproof/hidden/ünïcode.rs']) {
      const module = cargoModuleName(file);
      expect(module).toMatch(/^f[0-9a-f]+$/);
      expect(cargoModuleFile(module)).toBe(file);
    }
    expect(cargoModuleFile('tests')).toBeUndefined();
    expect(cargoModuleFile('f2')).toBeUndefined();
    expect(cargoModuleFile('fABCD')).toBeUndefined();
    expect(cargoModuleFile(`c${PLAN.nonce.slice(0, 16)}`)).toBeUndefined();
  });

  it('writes Rust string literals with quotes, backslashes and control characters escaped', () => {
    expect(rustString('../.patchproof/reproduction/x.rs')).toBe('"../.patchproof/reproduction/x.rs"');
    expect(rustString('a"b\\c\nd\u007f')).toBe('"a\\"b\\\\c\\u{a}d\\u{7f}"');
  });

  it('declares each external file as a #[path] module, then the two canaries in run order', () => {
    const source = cargoTargetSource(['.patchproof/reproduction/clip.rs', '.patchproof/reproduction/wide/main.rs'], PLAN);
    const names = canaryNames(PLAN);
    expect(source).toContain(`#[path = "../.patchproof/reproduction/clip.rs"]\nmod ${cargoModuleName('.patchproof/reproduction/clip.rs')};`);
    expect(source).toContain(`#[path = "../.patchproof/reproduction/wide/main.rs"]\nmod ${cargoModuleName('.patchproof/reproduction/wide/main.rs')};`);
    expect(source).toContain(`fn ${names.pass}() {\n    assert_eq!(::std::hint::black_box(1), 1);`);
    expect(source).toContain(`fn ${names.fail}() {\n    assert_eq!(::std::hint::black_box(1), 2);`);
    const [first, second] = canaryRunOrder(PLAN);
    expect(source.indexOf(`fn ${first}(`)).toBeLessThan(source.indexOf(`fn ${second}(`));
    expect(source.lastIndexOf('mod f')).toBeLessThan(source.indexOf('#[test]'));
    expect(cargoTargetSource([], PLAN)).not.toContain('mod ');
    expect(() => cargoTargetSource(['.patchproof/reproduction/notes.txt'], PLAN)).toThrow(ConfigurationError);
    const fallback = cargoCanaryFallbackSource(PLAN);
    expect(fallback).toContain(`fn ${names.pass}()`);
    expect(fallback).toContain(`fn ${names.fail}()`);
    expect(fallback).not.toContain('mod ');
  });
});

describe('cargo adapter command', () => {
  const view = { workdir: '/patchproof/repo', resultsDir: '/patchproof/results' };

  it('runs the staged harness with node, staging the generated target and the canary fallback', () => {
    const files = ['.patchproof/reproduction/clip.rs'];
    const command = cargoAdapter.command({ view, files, suite: false, testRoots: ['.patchproof/reproduction'], canary: PLAN });
    // node is exec'd from a non-dumpable copy as PID 1, and every test binary through the supervisor
    // (src/adapters/shared/supervisor.ts; issue 11 item 3, go/cargo re-execution).
    expect(command.argv.slice(0, 2)).toEqual(['sh', '-c']);
    expect(command.argv[2]).toContain('chmod 0111 "$nodebin"');
    expect(command.argv.slice(3)).toEqual([
      'patchproof-cargo',
      `/patchproof/repo/.patchproof/harness/${CARGO_HARNESS_FILE}`,
      '--results',
      '/patchproof/results',
      '--target',
      `patchproof_${PLAN.nonce}`,
      '--mode',
      'external',
      '--fallback',
      `.patchproof/harness/patchproof_canary_${PLAN.nonce}.rs`,
      '--supervisor',
      '/patchproof/repo/.patchproof/harness/supervise.py',
      '--',
      ...files
    ]);
    expect(Object.keys(command.stage).sort()).toEqual([`.patchproof/harness/patchproof_canary_${PLAN.nonce}.rs`, `tests/patchproof_${PLAN.nonce}.rs`]);
    expect(command.stage[`tests/patchproof_${PLAN.nonce}.rs`]).toContain(cargoModuleName(files[0] ?? ''));
    expect(command.env).toEqual({ TZ: 'UTC', LANG: 'C.UTF-8' });
    expect(cargoAdapter.execTmp).toBe(true);
  });

  it('stages a canary-only target for the suite and passes the suite files to select targets', () => {
    const command = cargoAdapter.command({ view, files: ['src/lib.rs', 'tests/columns.rs'], suite: true, testRoots: [], canary: PLAN });
    expect(command.argv.slice(9, 11)).toEqual(['--mode', 'suite']); // after sh -c SCRIPT patchproof-cargo HARNESS --results DIR --target NAME
    expect(command.argv.slice(-3)).toEqual(['--', 'src/lib.rs', 'tests/columns.rs']);
    expect(command.stage[`tests/patchproof_${PLAN.nonce}.rs`]).not.toContain('mod ');
  });

  it('refuses an empty file list and paths leaving the copy', () => {
    expect(() => cargoAdapter.command({ view, files: [], suite: false, testRoots: [], canary: PLAN })).toThrow(ConfigurationError);
    expect(() => cargoAdapter.command({ view, files: ['../x.rs'], suite: false, testRoots: [], canary: PLAN })).toThrow(ConfigurationError);
  });
});
