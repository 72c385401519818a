import path from 'node:path';
import { ConfigurationError } from '../../errors.js';
import type { CanaryPlan } from '../adapter.js';
import { HARNESS_DIR } from '../adapter.js';
import { canaryNames, canaryRunOrder, checkCanaryPlan } from '../shared/canary.js';

/**
 * The generated test target of the cargo adapter.
 *
 * Cargo compiles only `tests/*.rs` (and `tests/<dir>/main.rs`) as integration tests, so test files
 * staged at a witness placement (`.patchproof/reproduction/`) are invisible to it. Every run stages
 * `tests/patchproof_<nonce>.rs`, which cargo discovers as a test target of its own: it declares each
 * external test file as a module (`#[path = "../.patchproof/reproduction/x.rs"] mod f…;`) and then
 * the two grader canaries, so the external tests, the code under test they link and the canaries
 * share one test binary and one process. Module names encode the file's repository-relative path
 * (`f` + hex of its UTF-8 bytes), so test ids are `<file>::<test path>` whatever the nonce.
 *
 * For the repository's own suite the same target holds the canaries only. libtest runs every test
 * target in a binary of its own: the canaries share a process with the code under test linked into
 * that binary, not with the package's other test binaries.
 *
 * When the generated target does not compile (an external test uses an API the base lacks, or the
 * code under test itself does not build), no canary could run in it; the harness then compiles
 * `canaryFallbackPath` alone with `rustc --test` so the run still shows that the grader's own chain
 * (libtest, its JSON events, the parser) reports a failure as a failure, while the tests of the
 * target that did not build are reported as collection errors.
 */

/** Name of the generated target (the file stem under `tests/`) for a canary plan. */
export function cargoTargetName(plan: CanaryPlan): string {
  checkCanaryPlan(plan);
  return `patchproof_${plan.nonce}`;
}

/** Where the generated target is staged, relative to the copy's root. */
export function cargoTargetPath(plan: CanaryPlan): string {
  return `tests/${cargoTargetName(plan)}.rs`;
}

/** Where the canary-only fallback source is staged, relative to the copy's root. */
export function cargoCanaryFallbackPath(plan: CanaryPlan): string {
  checkCanaryPlan(plan);
  return `${HARNESS_DIR}/patchproof_canary_${plan.nonce}.rs`;
}

/** The module name that stands for a repository-relative test file: `f` and the hex of its path. */
export function cargoModuleName(file: string): string {
  return `f${Buffer.from(file, 'utf8').toString('hex')}`;
}

const MODULE = /^f((?:[0-9a-f]{2})+)$/;

/** The repository-relative file a module name stands for, or undefined when it is not one. */
export function cargoModuleFile(module: string): string | undefined {
  const match = MODULE.exec(module);
  if (match?.[1] === undefined) return undefined;
  const file = Buffer.from(match[1], 'hex').toString('utf8');
  return cargoModuleName(file) === module ? file : undefined;
}

/** A Rust string literal for `text`: quotes, backslashes and control characters escaped. */
export function rustString(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}

function canaryTests(plan: CanaryPlan): string[] {
  const names = canaryNames(plan);
  return canaryRunOrder(plan).map((name) => {
    const expected = name === names.pass ? 1 : 2;
    // black_box: the comparison happens at run time, in the binary, whatever the optimiser sees.
    return `#[test]\nfn ${name}() {\n    assert_eq!(::std::hint::black_box(1), ${expected});\n}\n`;
  });
}

const HEADER = ['// PatchProof test target (generated; see src/adapters/cargo/entry.ts).', '#![allow(dead_code, unused_imports, unused_macros)]', ''];

/**
 * Source of the generated target: a module per external test file (repository-relative paths,
 * checked by the caller; none for the suite), then the canaries.
 */
export function cargoTargetSource(files: readonly string[], plan: CanaryPlan): string {
  const target = cargoTargetPath(plan);
  const modules = [...new Set(files)].map((file) => {
    if (!file.endsWith('.rs')) {
      throw new ConfigurationError(`Invalid Rust test file '${file}'. Expected a .rs file.`);
    }
    const relative = path.posix.relative(path.posix.dirname(target), file);
    return `#[path = ${rustString(relative)}]\nmod ${cargoModuleName(file)};\n`;
  });
  return [...HEADER, ...modules, ...canaryTests(plan)].join('\n');
}

/** Source of the canary-only fallback, compiled alone with `rustc --test`. */
export function cargoCanaryFallbackSource(plan: CanaryPlan): string {
  return ['// PatchProof canary fallback (generated; see src/adapters/cargo/entry.ts).', '', ...canaryTests(plan)].join('\n');
}
