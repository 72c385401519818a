import { ConfigurationError } from '../../errors.js';
import type { TestCaseResult } from '../../core/test-results.js';
import type { CanaryOutcome, CanaryPlan } from '../adapter.js';
import { changedOf } from './tripwire.js';

/**
 * Grader canaries, the part every adapter shares: the two test names a plan yields, the order they
 * run in, and taking their results out of a run's tests. Each adapter generates the canary tests
 * themselves in its own runner's terms (node-test-entry.ts, unittest-harness.ts).
 */

const NONCE = /^[0-9a-f]{32,}$/;

/** The names of a plan's two canary tests. */
export interface CanaryNames {
  /** The test that asserts 1 === 1. */
  pass: string;
  /** The test that asserts 1 === 2. */
  fail: string;
}

/**
 * Throws a ConfigurationError unless the nonce is at least 32 lowercase hex digits whose two
 * halves differ (equal halves would give both canaries one name).
 */
export function checkCanaryPlan(plan: CanaryPlan): void {
  if (!NONCE.test(plan.nonce) || plan.nonce.slice(0, 16) === plan.nonce.slice(16, 32)) {
    throw new ConfigurationError(`Invalid canary nonce '${plan.nonce}'. Expected at least 32 lowercase hex digits, the first 16 unlike the next 16.`);
  }
}

/**
 * Two names cut from different parts of the nonce, so neither says which one must pass (both are
 * valid identifiers in JavaScript and Python).
 */
export function canaryNames(plan: CanaryPlan): CanaryNames {
  checkCanaryPlan(plan);
  return { pass: `c${plan.nonce.slice(0, 16)}`, fail: `c${plan.nonce.slice(16, 32)}` };
}

/**
 * The canary names in the order they run: decided by the nonce's last digit, so code that treats
 * "the last test" specially cannot count on it being the must-fail one.
 */
export function canaryRunOrder(plan: CanaryPlan): [string, string] {
  const names = canaryNames(plan);
  return Number.parseInt(plan.nonce.slice(-1), 16) % 2 === 0 ? [names.pass, names.fail] : [names.fail, names.pass];
}

/**
 * Splits a run's tests into the canaries (by id) and the rest. A canary id that occurs more than
 * once keeps its first result here; the adapters report the duplicate id as a problem. A must-pass
 * canary that failed naming the tripwire's changes gives them as `changed`.
 */
export function takeCanaries(tests: readonly TestCaseResult[], ids: { pass: string; fail: string }): { tests: TestCaseResult[]; canary: CanaryOutcome } {
  const canary: CanaryOutcome = { pass: 'missing', fail: 'missing' };
  const rest: TestCaseResult[] = [];
  for (const test of tests) {
    if (test.id === ids.pass || test.id === ids.fail) {
      const key = test.id === ids.pass ? 'pass' : 'fail';
      if (canary[key] === 'missing') {
        canary[key] = test.status;
        const changed = key === 'pass' && test.status !== 'passed' ? changedOf(test.message) : undefined;
        if (changed !== undefined) canary.changed = changed;
      }
    } else {
      rest.push(test);
    }
  }
  return { tests: rest, canary };
}
