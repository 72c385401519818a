import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeRegression, judgeRelatedTier, RELATED_LABEL } from '../core/verdict.js';
import { jsImportGraph, planRelatedTier } from '../core/related-tests.js';
import { pythonImportGraph } from '../adapters/shared/python-imports.js';
import { listFiles } from './workspace.js';
import type { Phase } from './phase.js';
import { evidenceOf, retryWhileFailing } from './runs.js';

/**
 * The repository's own suite: on the base (the PASS_TO_PASS baseline), then, with gates, L3's
 * first tier (the suite files that import a changed file), then the whole suite on the patched
 * tree. A PASS_TO_PASS test failing after the patch is re-run: failing every time is a regression.
 */

export const regressionBefore: Phase = {
  name: 'regression_before',
  needs: [],
  side: 'base',
  decides: 'regression',
  labels: ['regression_before'],
  plans: (ctx) => ctx.plans.filter((plan) => plan.label === 'regression_before')
};

export const related: Phase = {
  name: 'related',
  needs: ['reproduction_after', 'regression_before'],
  side: 'candidate',
  decides: 'regression',
  labels: [RELATED_LABEL],
  // Gates only: the suite files that import a changed file, from the graded tree.
  planned: async (ctx) => {
    if (!ctx.flow.earlyExit || ctx.flow.record) return;
    const { adapter } = ctx.request;
    const patched = ctx.trees.dirs.patched;
    const readPatched = (path: string): string | undefined => {
      try {
        return readFileSync(join(patched, ...path.split('/')), 'utf8');
      } catch {
        return undefined;
      }
    };
    const patchedFiles = await listFiles(patched);
    let graph: ((file: string) => string[] | undefined) | undefined;
    if (adapter.importGraph === 'js') graph = jsImportGraph(patchedFiles, readPatched);
    if (adapter.importGraph === 'python') {
      try {
        graph = pythonImportGraph(Object.fromEntries(ctx.trees.suite.patched.map((f) => [f, readPatched(f) ?? ''])), patchedFiles);
      } catch (error) {
        // The tier is an early stop only: without the host's python3 it is skipped, the full suite decides.
        ctx.deps.log(`L3 related test files: ${(error as Error).message}`);
      }
    }
    const plan = planRelatedTier(ctx.trees.suite.patched, [...ctx.graded.keys()], graph);
    ctx.state.related = plan;
    if ('files' in plan) ctx.trees.related = plan.files;
    ctx.deps.log('files' in plan ? `L3 related test files first: ${plan.files.join(', ')}` : `L3 related test files: skipped (${plan.skipped})`);
  },
  applies: (ctx) => ctx.state.related !== undefined && !('skipped' in ctx.state.related),
  plans: () => [{ label: RELATED_LABEL, attempt: 1, tree: 'patched', tests: 'related' }],
  // The tier's failing PASS_TO_PASS tests are re-run like the suite's.
  settle: (ctx, outputs) => retryWhileFailing(outputs, RELATED_LABEL, 'related', ctx.request.witness.manifest.regression.retries, ctx.execute),
  gate: (ctx, outputs) => {
    if (judgeRelatedTier(evidenceOf(outputs, 'regression_before')[0], evidenceOf(outputs, RELATED_LABEL)).status !== 'failed') return { passed: true };
    const files = ctx.state.related !== undefined && 'files' in ctx.state.related ? ctx.state.related.files : [];
    return { passed: false, why: `L3 related test files (${files.join(', ')}) failed with a regression; the full suite and the hidden tests are not run` };
  }
};

export const regressionAfter: Phase = {
  name: 'regression',
  needs: ['related'],
  side: 'candidate',
  decides: 'regression',
  labels: ['regression_after'],
  plans: (ctx) => ctx.plans.filter((plan) => plan.label === 'regression_after'),
  settle: (ctx, outputs) => retryWhileFailing(outputs, 'regression_after', 'suite', ctx.request.witness.manifest.regression.retries, ctx.execute),
  gate: (ctx, outputs) =>
    judgeRegression(evidenceOf(outputs, 'regression_before')[0]!, evidenceOf(outputs, 'regression_after')).status === 'failed' ? { passed: false } : { passed: true }
};
