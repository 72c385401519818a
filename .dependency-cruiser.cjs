/**
 * The layering of src/, checked by dependency-cruiser (`npm run lint:deps`, a step of .ci/run).
 * Type-only imports count (tsPreCompilationDeps): a type cycle is still a cycle of modules.
 */
/** Node modules with side effects (files, processes, network, the host): none may reach src/core. */
const SIDE_EFFECT_BUILTINS = '^(node:)?(fs|fs/promises|child_process|net|http|https|http2|os|worker_threads|cluster|dgram|dns|tls|readline|vm|process|inspector)$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles in src/: shared types and helpers live in their own module.',
      from: { path: '^src/' },
      to: { circular: true }
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core is pure data in, data out: it imports only src/core, src/errors.ts and pure libraries.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/errors\\.ts$'] }
    },
    {
      name: 'core-no-side-effect-builtins',
      severity: 'error',
      comment: 'src/core imports no Node module with side effects (node:crypto, for hashing, is pure).',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'], path: SIDE_EFFECT_BUILTINS }
    },
    {
      name: 'core-no-side-effect-packages',
      severity: 'error',
      comment: 'src/core imports no GitHub toolkit, API client or Sigstore package.',
      from: { path: '^src/core/' },
      to: { path: '(^|/)node_modules/(@actions|@octokit|@sigstore)/' }
    },
    {
      name: 'no-sibling-mode',
      severity: 'error',
      comment: 'An action mode never imports another mode: main.ts wires them; what they share is in src/action/mode.ts.',
      from: { path: '^src/action/([^/]+)-mode\\.ts$' },
      to: { path: '^src/action/[^/]+-mode\\.ts$', pathNot: '^src/action/$1-mode\\.ts$' }
    },
    {
      name: 'adapter-imports-no-other-adapter',
      severity: 'error',
      comment:
        "An adapter folder (src/adapters/<name>/) imports only itself, src/adapters/shared and the layers below: never another adapter's folder (what two adapters share goes to shared/).",
      from: { path: '^src/adapters/([^/]+)/', pathNot: '^src/adapters/shared/' },
      to: { path: '^src/adapters/[^/]+/', pathNot: ['^src/adapters/$1/', '^src/adapters/shared/'] }
    },
    {
      name: 'adapter-imports-no-registry',
      severity: 'error',
      comment: 'Adapter folders and shared/ sit below the registry (src/adapters/registry.ts imports them) and the registry-level modules beside it.',
      from: { path: '^src/adapters/[^/]+/' },
      to: { path: '^src/adapters/[^/]+\\.ts$', pathNot: '^src/adapters/adapter\\.ts$' }
    },
    {
      name: 'shared-imports-no-adapter',
      severity: 'error',
      comment: 'src/adapters/shared is below every adapter: it imports no adapter folder.',
      from: { path: '^src/adapters/shared/' },
      to: { path: '^src/adapters/[^/]+/', pathNot: '^src/adapters/shared/' }
    },
    {
      name: 'tamper-runs-nothing',
      severity: 'error',
      comment:
        "src/tamper reads the candidate's files on the host and never runs them: it imports no process, worker, vm or network module, and nothing of the runners, the phases or the entries.",
      from: { path: '^src/tamper/' },
      to: {
        path: ['^(node:)?(child_process|worker_threads|cluster|vm|net|http|https|http2|dgram|inspector)$', '^src/(runners|phases|action|cli|publish|receipt|fetch)/']
      }
    },
    {
      name: 'entry-imported-by-nothing',
      severity: 'error',
      comment: "The entries (the action's main.ts, the CLI's run.ts) import the rest; nothing imports them back.",
      from: { path: '^src/', pathNot: ['^src/action/index\\.ts$', '^src/cli/index\\.ts$'] },
      to: { path: ['^src/action/main\\.ts$', '^src/cli/run\\.ts$'] }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.json'] }
  }
};
