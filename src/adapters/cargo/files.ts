import type { TestSurface } from '../adapter.js';
import { selectSuiteFiles } from '../shared/test-files.js';

/**
 * Which files matter to the cargo adapter: the external test files it compiles into its generated
 * test target, the sources that hold the package's own tests, the test surface a candidate may not
 * touch unreported, and the source lines that skip or expect-fail a test.
 *
 * The adapter handles one package whose `Cargo.toml` is at the repository root (no virtual
 * workspace). Paths follow cargo's target auto-discovery.
 */

const RUST_FILE = /\.rs$/;

/**
 * True for the files of a witness folder that are test modules, as cargo's own `tests/` folder
 * works: `*.rs` files at the top, and `<dir>/main.rs`. Other files in sub-folders (`common/mod.rs`)
 * are helper modules a test declares with `mod`, compiled through that test.
 */
export function isCargoTestFile(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/);
  if (parts.length === 1) return RUST_FILE.test(parts[0] ?? '');
  return parts.length === 2 && parts[1] === 'main.rs';
}

/**
 * The Rust sources that hold the package's own tests, as `cargo test` finds them: every `.rs` file
 * under `src/` (unit tests live in the code's own modules) and the integration tests
 * `tests/*.rs` and `tests/<dir>/main.rs`; empty when the root has no `Cargo.toml`. The run builds
 * every test target of the package; a target's tests are run when its root file (`src/lib.rs`,
 * `src/main.rs`, `src/bin/x.rs`, `tests/x.rs`) is among these files.
 */
export function cargoSuiteFiles(paths: readonly string[]): string[] {
  if (!paths.includes('Cargo.toml')) return [];
  const isSuiteFile = (file: string): boolean => {
    const parts = file.split('/');
    if (!RUST_FILE.test(file)) return false;
    if (parts[0] === 'src') return true;
    return parts[0] === 'tests' && (parts.length === 2 || (parts.length === 3 && parts[2] === 'main.rs'));
  };
  return selectSuiteFiles(paths, isSuiteFile, ['target']);
}

/** The Rust files under `src/` (outside `target/`), which may hold unit tests (cargo-unit-tests.ts). */
export function cargoUnitTestFiles(paths: readonly string[]): string[] {
  return paths.filter((file) => file.startsWith('src/') && RUST_FILE.test(file) && !file.split('/').includes('target')).sort();
}

/**
 * The cargo test surface (see TestSurface). `Cargo.toml` is both test configuration (targets,
 * `autotests`, profiles, `[features]`) and a dependency manifest. Unit tests inside `src/` cannot be
 * told from code by path: they are compared item by item instead (cargo-unit-tests.ts,
 * src/inventory/surface/in-source-tests.ts), see docs/witness-pack.md.
 */
export const CARGO_SURFACE: TestSurface = {
  tests: ['**/tests/**', '**/benches/**'],
  config: ['.github/**', '**/Cargo.toml', 'build.rs', '**/.cargo/config', '**/.cargo/config.toml', 'rust-toolchain', 'rust-toolchain.toml'],
  dependencies: ['**/Cargo.toml', '**/Cargo.lock']
};

/**
 * Lines that skip or expect-fail a Rust test: `#[ignore]` (with or without a reason),
 * `#[should_panic]` (a panicking test then passes), either inside `cfg_attr(…)`, an always-false
 * `#[cfg(any())]` / `#[cfg(not(all()))]`, and a crate- or module-level `#![cfg(…)]`, which can
 * leave a whole test file out of the build.
 */
export const CARGO_SKIP_MARKERS: readonly RegExp[] = [
  /#\s*\[\s*ignore\b/,
  /#\s*\[\s*should_panic\b/,
  /\bcfg_attr\s*\(.*\b(?:ignore|should_panic)\b/,
  /#\s*!?\s*\[\s*cfg\s*\(\s*(?:any\s*\(\s*\)|not\s*\(\s*all\s*\(\s*\)\s*\))/,
  /#\s*!\s*\[\s*cfg\s*\(/
];
