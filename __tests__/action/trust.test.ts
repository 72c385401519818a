import { decideTrust, unprotectedPackRef, type TrustInput } from '../../src/action/trust.js';
import { gateDowngrade } from '../../src/action/validate-mode.js';
import { defaultProtected } from '../../src/core/surface.js';

const REPO = 'octo-org/hello-world';
const GATE = `${REPO}/.github/workflows/patchproof-gate.yml`;

function payload(options: { headRef?: string; headRepo?: string; defaultBranch?: string | null } = {}): unknown {
  return {
    pull_request: {
      number: 7,
      base: { ref: 'main', sha: 'a'.repeat(40), repo: { full_name: REPO } },
      head: { ref: options.headRef ?? 'fix-ms', sha: 'b'.repeat(40), repo: { full_name: options.headRepo ?? 'contributor/hello-world' } }
    },
    repository: { full_name: REPO, ...(options.defaultBranch === null ? {} : { default_branch: options.defaultBranch ?? 'main' }) }
  };
}

const input = (eventName: string, workflowRef: string | undefined, body: unknown = payload()): TrustInput => ({ eventName, workflowRef, repository: REPO, payload: body });

describe('decideTrust: may this run post success?', () => {
  it.each([
    ['pull_request_target from the default branch', input('pull_request_target', `${GATE}@refs/heads/main`)],
    ['a same-repository pull_request_target', input('pull_request_target', `${GATE}@refs/heads/main`, payload({ headRepo: REPO }))],
    ['workflow_dispatch from the default branch', input('workflow_dispatch', `${GATE}@refs/heads/main`)],
    ['a workflow pinned to a tag', input('workflow_dispatch', `${GATE}@refs/tags/v1.2.0`)],
    ['a ruleset workflow pinned to a commit', input('pull_request_target', `${GATE}@${'c'.repeat(40)}`)],
    ['a ruleset workflow of another repository pinned to a commit', input('pull_request_target', `octo-org/policies/.github/workflows/gate.yml@${'c'.repeat(40)}`)]
  ])('trusts %s', (_, value) => {
    expect(decideTrust(value)).toEqual({ trusted: true, workflowRef: value.workflowRef });
  });

  it.each([
    [
      "pull_request, always (the merge commit's files run)",
      input('pull_request', `${GATE}@refs/heads/main`),
      /^on pull_request GitHub runs the workflow files of the pull request's merge commit/
    ],
    ['a workflow from a pull request ref', input('pull_request_target', `${GATE}@refs/pull/7/merge`), /^the workflow runs from the pull request ref refs\/pull\/7\/merge/],
    [
      'workflow_dispatch from another branch',
      input('workflow_dispatch', `${GATE}@refs/heads/agent-branch`),
      /^the workflow file runs from the branch refs\/heads\/agent-branch, not the default branch refs\/heads\/main \(a workflow_dispatch runs the file of the ref it was dispatched on\)/
    ],
    ['a push to another branch', input('push', `${GATE}@refs/heads/feature`), /not the default branch/],
    [
      "another repository's branch",
      input('pull_request_target', `someone/else/.github/workflows/gate.yml@refs/heads/main`),
      /refs\/heads\/main of someone\/else, a branch of another repository/
    ],
    ['no GITHUB_WORKFLOW_REF', input('pull_request_target', undefined), /^GITHUB_WORKFLOW_REF '' does not say which workflow file runs/],
    ['a malformed GITHUB_WORKFLOW_REF', input('pull_request_target', 'main'), /does not say which workflow file runs/],
    ['a payload without default_branch', input('pull_request_target', `${GATE}@refs/heads/main`, payload({ defaultBranch: null })), /no repository.default_branch/],
    [
      'a pull request into another branch',
      input('pull_request_target', `${GATE}@refs/heads/trunk`, payload({ defaultBranch: 'trunk' })),
      /the pull request targets main, not the default branch refs\/heads\/trunk/
    ],
    [
      "a same-repository PR whose head is the workflow's ref",
      input('pull_request_target', `${GATE}@refs/heads/main`, payload({ headRef: 'main', headRepo: REPO })),
      /the pull request's own head branch/
    ]
  ])('does not trust %s, and says what to use instead', (_, value, why) => {
    const decision = decideTrust(value);
    expect(decision.trusted).toBe(false);
    if (decision.trusted) return;
    expect(decision.why).toMatch(why);
    expect(decision.why).toMatch(/; run PatchProof from a pull_request_target workflow on the default branch .*ruleset/);
  });
});

describe('unprotectedPackRef: a ref: pack names the default branch or a tag', () => {
  it('accepts the default branch and tags', () => {
    expect(unprotectedPackRef('refs/heads/main', payload())).toBeUndefined();
    expect(unprotectedPackRef('refs/tags/pack-v1', payload())).toBeUndefined();
    expect(unprotectedPackRef('refs/heads/trunk', payload({ defaultBranch: 'trunk' }))).toBeUndefined();
  });

  it.each(['refs/heads/fix-ms', 'main', 'refs/heads/main-copy', 'a'.repeat(40), 'refs/remotes/origin/main'])('refuses %s, naming the fix', (ref) => {
    expect(unprotectedPackRef(ref, payload())).toBe(
      `witness-pack ref '${ref}' is not the default branch or a tag, so whoever can push it chooses the grader; use ref:refs/heads/main:PATH or ref:refs/tags/<tag>:PATH`
    );
  });

  it('refuses every branch when the payload does not say which is the default', () => {
    expect(unprotectedPackRef('refs/heads/main', payload({ defaultBranch: null }))).toMatch(/use ref:refs\/heads\/<default branch>:PATH/);
  });
});

describe('gateDowngrade: success needs proof grade and a trusted workflow', () => {
  const trusted = { trusted: true, workflowRef: `${GATE}@refs/heads/main` } as const;
  const untrusted = { trusted: false, why: 'on pull_request …' } as const;
  it('lets a proof-grade pass in a trusted workflow through', () => {
    expect(gateDowngrade({ verdict: 'passed', proof_grade: true }, trusted)).toBeUndefined();
  });
  it('posts a local-runner pass as failure', () => {
    expect(gateDowngrade({ verdict: 'passed', proof_grade: false }, trusted)).toMatchObject({ code: 'not_proof_grade' });
  });
  it('posts a proof-grade pass in an untrusted workflow as failure', () => {
    expect(gateDowngrade({ verdict: 'passed', proof_grade: true }, untrusted)).toEqual({
      code: 'untrusted_workflow',
      why: 'the candidate passed, but this run cannot vouch for it: on pull_request …'
    });
  });
  it('leaves a failure a failure', () => {
    expect(gateDowngrade({ verdict: 'failed', proof_grade: false }, untrusted)).toBeUndefined();
  });
  it('posts a pass whose proof grade the tamper screen withheld as failure, naming the rules and places (paths in code spans)', () => {
    const tamper_screen = {
      files_screened: 1,
      findings: [
        { rule: 'monkeypatch' as const, path: 'src/*compat*.js', line: 2, text: 'Math.trunc = Math.floor', allowed: false },
        { rule: 'env_argv_read' as const, path: 'src/config.js', line: 1, text: 'process.env.PORT', allowed: true }
      ],
      not_screened: []
    };
    expect(gateDowngrade({ verdict: 'passed', proof_grade: false, tamper_screen }, trusted)).toEqual({
      code: 'not_proof_grade',
      why: 'the candidate passed, but proof grade withheld: tamper screen (1 finding): monkeypatch at `src/*compat*.js:2`; its non-test code can make the in-process grader lie, so this run cannot post success for it'
    });
  });
});

describe('defaultProtected: .github and the pack itself', () => {
  it('protects .github unless workflow edits are allowed, and the pack folder always', () => {
    expect(defaultProtected(false, undefined)).toEqual(['.github', '.github/**']);
    expect(defaultProtected(true, undefined)).toEqual([]);
    expect(defaultProtected(true, 'witness/pack(1)/')).toEqual(['witness/pack\\(1\\)', 'witness/pack\\(1\\)/**']);
    expect(defaultProtected(false, '.')).toEqual(['.github', '.github/**']);
  });
});

describe('docs/action.md: every REST payload of the setup is one GitHub accepts', () => {
  it('validates each `gh api --method M PATH --input -` body against its operation in the description: the environment, the ruleset requiring the check from the app, the ruleset requiring the workflow', async () => {
    const { readFileSync } = await import('node:fs');
    const { matchRoute, validateRequest } = await import('../support/openapi.js');
    const text = readFileSync(new URL('../../docs/action.md', import.meta.url), 'utf8');
    const calls = [...text.matchAll(/gh api --method (\w+) \/?(\S+) --input - <<'JSON'\n([\s\S]+?)\nJSON\n/g)].map((m) => ({
      method: m[1] as string,
      path: `/${(m[2] as string).replace(/^\//, '')}`,
      body: JSON.parse((m[3] as string).replace('<40 hex commit>', 'c'.repeat(40))) as Record<string, unknown>
    }));
    const operations = calls.map(({ method, path, body }) => {
      const route = matchRoute(method, path);
      expect({ path, errors: route === undefined ? ['no such route'] : validateRequest(route.operation, { pathParams: route.pathParams, query: {}, body }) }).toEqual({
        path,
        errors: []
      });
      return route?.operation.operationId;
    });
    expect(operations).toEqual(['repos/create-or-update-environment', 'repos/create-repo-ruleset', 'repos/create-repo-ruleset']);
    const rules = calls.flatMap(({ body }) => (Array.isArray(body['rules']) ? (body['rules'] as { type: string; parameters: Record<string, unknown> }[]) : []));
    expect(rules.map((r) => r.type)).toEqual(['required_status_checks', 'workflows']);
    // The check is required from the app: an integration id, never a name alone.
    expect(rules[0]?.parameters['required_status_checks']).toEqual([{ context: 'PatchProof', integration_id: 123456 }]);
    // And it really checks: a workflows rule without its workflows list is refused.
    const route = matchRoute('POST', '/repos/OWNER/REPO/rulesets');
    expect(
      validateRequest(route!.operation, { pathParams: route!.pathParams, query: {}, body: { ...calls[2]?.body, rules: [{ type: 'workflows', parameters: {} }] } })
    ).not.toEqual([]);
  });
});

describe('the default protection is what a pack allowing config edits cannot relax', () => {
  it('a .github edit under allow.config_edits is grader_tampered only with the default protection; allow.workflow_edits relaxes it', async () => {
    const { analyseSurface, surfaceReasons } = await import('../../src/core/surface.js');
    const { NODE_TEST_SURFACE } = await import('../../src/adapters/shared/node-test-files.js');
    const change = { path: '.github/workflows/patchproof-gate.yml', op: 'modify', hunks: [] } as unknown as Parameters<typeof analyseSurface>[0][number];
    const allow = { test_edits: false, test_removal: false, skips: false, config_edits: true, dependency_changes: false };
    const rules = (extra: string[]): Parameters<typeof analyseSurface>[1] => ({
      ...NODE_TEST_SURFACE,
      protected: extra,
      placements: ['.patchproof/reproduction'],
      skipMarkers: []
    });
    // Without the default protection, config_edits lets a workflow edit through.
    expect(surfaceReasons(analyseSurface([change], rules([])), allow).reasons).toEqual([]);
    expect(surfaceReasons(analyseSurface([change], rules(defaultProtected(false, undefined))), allow).reasons).toEqual(['grader_tampered']);
    expect(surfaceReasons(analyseSurface([change], rules(defaultProtected(true, undefined))), allow).reasons).toEqual([]);
    // The pack's own folder stays protected even with workflow edits allowed.
    const packEdit = { ...change, path: 'graders/my-bug/witness.json' } as typeof change;
    expect(surfaceReasons(analyseSurface([packEdit], rules(defaultProtected(true, 'graders/my-bug'))), allow).reasons).toEqual(['grader_tampered']);
    expect(surfaceReasons(analyseSurface([packEdit], rules(defaultProtected(true, undefined))), allow).reasons).toEqual([]);
  });
});

describe('readActionSettings: publish refused, the GitHub App inputs', () => {
  const base = { 'github-token': 'ghs_x', 'witness-pack': 'p', 'witness-digest': `sha256:${'a'.repeat(64)}`, image: `sha256:${'b'.repeat(64)}` };
  const read = async (inputs: Record<string, string>) => {
    const { readActionSettings } = await import('../../src/inputs/action-settings.js');
    const all: Record<string, string> = { ...base, ...inputs };
    return readActionSettings((name) => all[name] ?? '');
  };
  const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----';

  it('refuses mode publish in one line naming the gate', async () => {
    await expect(read({ mode: 'publish' })).rejects.toThrow(
      /^mode 'publish' was removed: a receipt from the pull request's run is not evidence; validate in a pull_request_target gate instead/
    );
  });

  it('reads app-id and app-private-key (with literal \\n from a pasted secret), and the optional installation id', async () => {
    expect((await read({ 'app-id': '12345', 'app-private-key': PEM.replace(/\n/g, '\\n') })).app).toEqual({ appId: 12345, privateKey: PEM });
    expect((await read({ 'app-id': '12345', 'app-private-key': PEM, 'app-installation-id': '77' })).app).toEqual({ appId: 12345, privateKey: PEM, installationId: 77 });
    expect((await read({})).app).toBeUndefined();
  });

  it.each([
    [{ 'app-id': '12345' }, /^app-private-key is not a PEM private key/],
    [{ 'app-private-key': PEM }, /^app-id '' is not a GitHub App id/],
    [{ 'app-id': 'my-app', 'app-private-key': PEM }, /^app-id 'my-app' is not a GitHub App id/],
    [{ 'app-installation-id': '5' }, /^app-installation-id is set without app-id and app-private-key/]
  ])('refuses %j', async (inputs, message) => {
    await expect(read(inputs)).rejects.toThrow(message);
  });
});
