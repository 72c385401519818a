import {
  diagnoseSetup,
  environmentFinding,
  forkFinding,
  GITHUB_ACTIONS_APP_ID,
  headRunsFinding,
  requiredCheckFinding,
  worstSeverity,
  type Finding,
  type Read,
  type SetupFacts,
  type Severity
} from '../../src/core/setup-doctor.js';
import { doctorCheckName, renderDoctorReport } from '../../src/core/setup-doctor-report.js';

/**
 * The setup check's pure core: settings read (or not) in, answers out. Each table row is one
 * setting as GitHub can have it; an unreadable setting is never `ok`.
 */

const APP = 424242;
const REPO_ID = 1296269;
const none = <T>(value: T): Read<T> => ({ read: true, value });
const denied: Read<never> = { read: false, status: 403, reason: 'Resource not accessible by integration; the token needs Administration: read' };

/** A sound setup: the check pinned to the App in classic protection, the key's environment on main only, every fork waits. */
function facts(change: Partial<SetupFacts> = {}): SetupFacts {
  return {
    repository: 'octo-org/hello-world',
    repositoryId: REPO_ID,
    defaultBranch: 'main',
    private: false,
    checkName: 'PatchProof',
    expectedApp: { id: APP },
    gateWorkflow: '.github/workflows/patchproof-gate.yml',
    classic: none([{ context: 'PatchProof', appId: APP }]),
    rules: none({ checks: [], workflows: [] }),
    environment: {
      name: 'patchproof',
      facts: none({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, patterns: none([{ name: 'main', type: 'branch' as const }]), requiredReviewers: false })
    },
    forkApproval: none('all_external_contributors' as const),
    ...change
  };
}

const rules = (checks: SetupFacts['rules'] extends Read<infer T> ? T : never): Read<typeof checks> => none(checks);

describe('requiredCheckFinding: can another source satisfy the required check?', () => {
  it.each<[string, Partial<SetupFacts>, Severity, RegExp]>([
    ['classic, pinned to the App', {}, 'ok', /required from app 424242, which no pull request controls/],
    [
      'classic, name only (any source)',
      { classic: none([{ context: 'PatchProof', appId: null }]) },
      'fail',
      /by name only \(any source\): any workflow job named 'PatchProof' satisfies it/
    ],
    ['classic, GitHub Actions as the source', { classic: none([{ context: 'PatchProof', appId: GITHUB_ACTIONS_APP_ID }]) }, 'fail', /with GitHub Actions as the source/],
    [
      'classic, GitHub Actions even when named as the expected App',
      { classic: none([{ context: 'PatchProof', appId: GITHUB_ACTIONS_APP_ID }]), expectedApp: { id: GITHUB_ACTIONS_APP_ID } },
      'fail',
      /with GitHub Actions as the source/
    ],
    ['classic, another App than PatchProof', { classic: none([{ context: 'PatchProof', appId: 777 }]) }, 'fail', /another App than PatchProof's/],
    ['classic, an App, but no App named to compare', { classic: none([{ context: 'PatchProof', appId: 777 }]), expectedApp: undefined }, 'warn', /give app-id or expected-app/],
    [
      'ruleset, pinned by integration_id',
      { classic: none(null), rules: rules({ checks: [{ context: 'PatchProof', integrationId: APP, ruleset: 'octo-org/hello-world #42' }], workflows: [] }) },
      'ok',
      /no pull request controls/
    ],
    ['ruleset, name only', { classic: none(null), rules: rules({ checks: [{ context: 'PatchProof', ruleset: 'octo-org #7' }], workflows: [] }) }, 'fail', /by name only/],
    [
      'ruleset requiring the gate workflow at the default branch',
      {
        classic: none(null),
        rules: rules({ checks: [], workflows: [{ path: '.github/workflows/patchproof-gate.yml', repositoryId: REPO_ID, ref: 'refs/heads/main', ruleset: 'r #1' }] })
      },
      'ok',
      /requires the gate workflow/
    ],
    [
      'ruleset requiring the gate workflow at a pinned commit',
      {
        classic: none(null),
        rules: rules({ checks: [], workflows: [{ path: '.github/workflows/patchproof-gate.yml', repositoryId: REPO_ID, sha: 'a'.repeat(40), ruleset: 'r #1' }] })
      },
      'ok',
      /requires the gate workflow/
    ],
    [
      'ruleset requiring the gate workflow at another branch',
      {
        classic: none(null),
        rules: rules({ checks: [], workflows: [{ path: '.github/workflows/patchproof-gate.yml', repositoryId: REPO_ID, ref: 'refs/heads/dev', ruleset: 'r #1' }] })
      },
      'warn',
      /ref other than the default branch/
    ],
    [
      'ruleset requiring a workflow of the same name in another repository: not the gate',
      { classic: none(null), rules: rules({ checks: [], workflows: [{ path: '.github/workflows/patchproof-gate.yml', repositoryId: 99, ruleset: 'r #1' }] }) },
      'fail',
      /No rule of main requires 'PatchProof'/
    ],
    ['no required check at all (both read)', { classic: none(null), rules: rules({ checks: [], workflows: [] }) }, 'fail', /a failing verdict blocks nothing/],
    ['a required check of another name only', { classic: none([{ context: 'CI', appId: null }]) }, 'fail', /No rule of main requires/],
    ['classic unreadable, rulesets require nothing', { classic: denied }, 'unknown', /could not read every rule/],
    [
      'classic unreadable, a ruleset requires it by name: another rule may pin it',
      { classic: denied, rules: rules({ checks: [{ context: 'PatchProof', ruleset: 'r #1' }], workflows: [] }) },
      'unknown',
      /cannot tell whether another rule pins it/
    ],
    [
      'classic unreadable, a ruleset pins it',
      { classic: denied, rules: rules({ checks: [{ context: 'PatchProof', integrationId: APP, ruleset: 'r #1' }], workflows: [] }) },
      'ok',
      /no pull request controls/
    ],
    ['neither readable', { classic: denied, rules: denied }, 'unknown', /could not read every rule/],
    [
      'pinned in a ruleset and by name in classic: the pinned rule holds',
      { classic: none([{ context: 'PatchProof', appId: null }]), rules: rules({ checks: [{ context: 'PatchProof', integrationId: APP, ruleset: 'r #1' }], workflows: [] }) },
      'ok',
      /the pinned rule still holds/
    ]
  ])('%s: %s', (_name, change, severity, en) => {
    const finding = requiredCheckFinding(facts(change));
    expect(finding.severity).toBe(severity);
    expect(finding.en).toMatch(en);
    expect(finding.zh).not.toBe('');
  });

  it('an unreadable setting is named with its status and reason in the details', () => {
    const finding = requiredCheckFinding(facts({ classic: denied }));
    expect(finding.details).toContain('classic branch protection of main: could not read (HTTP 403): Resource not accessible by integration; the token needs Administration: read');
  });
});

describe('environmentFinding: is the App key limited to the default branch?', () => {
  const env = (value: Read<NonNullable<SetupFacts['environment']>['facts'] extends Read<infer T> ? T : never>): Partial<SetupFacts> => ({
    environment: { name: 'patchproof', facts: value }
  });
  it.each<[string, Partial<SetupFacts>, Severity, RegExp]>([
    ['custom policy: main only', {}, 'ok', /Only main may use 'patchproof'/],
    ['protected branches only', env(none({ branchPolicy: { protectedBranches: true, customBranchPolicies: false }, requiredReviewers: false })), 'ok', /Only protected branches/],
    ['no policy: any branch', env(none({ branchPolicy: null, requiredReviewers: false })), 'fail', /Any branch may use 'patchproof'/],
    ['no policy but a required reviewer', env(none({ branchPolicy: null, requiredReviewers: true })), 'warn', /each job waits for a reviewer/],
    [
      'custom policy: main and release/*',
      env(
        none({
          branchPolicy: { protectedBranches: false, customBranchPolicies: true },
          patterns: none([
            { name: 'main', type: 'branch' as const },
            { name: 'release/*', type: 'branch' as const }
          ]),
          requiredReviewers: false
        })
      ),
      'fail',
      /branch release\/\* may use the App key/
    ],
    [
      'custom policy: a wildcard that also matches main',
      env(none({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, patterns: none([{ name: 'ma*', type: 'branch' as const }]), requiredReviewers: false })),
      'fail',
      /branch ma\* may use/
    ],
    [
      'custom policy: a tag named like the branch',
      env(none({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, patterns: none([{ name: 'main', type: 'tag' as const }]), requiredReviewers: false })),
      'fail',
      /tag main may use/
    ],
    [
      'custom policy: no pattern',
      env(none({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, patterns: none([]), requiredReviewers: false })),
      'warn',
      /allows no branch/
    ],
    [
      'custom policy: patterns unreadable',
      env(none({ branchPolicy: { protectedBranches: false, customBranchPolicies: true }, patterns: denied, requiredReviewers: false })),
      'unknown',
      /could not be read/
    ],
    ['does not exist', env(none(null)), 'fail', /does not exist/],
    ['unreadable', env(denied), 'unknown', /could not be read/],
    ['not named', { environment: undefined }, 'unknown', /Not checked/]
  ])('%s: %s', (_name, change, severity, en) => {
    const finding = environmentFinding(facts(change));
    expect(finding.severity).toBe(severity);
    expect(finding.en).toMatch(en);
  });
});

describe("forkFinding: do forks' workflows run without approval?", () => {
  it.each<[string, Partial<SetupFacts>, boolean, Severity, RegExp]>([
    ['all outside contributors wait', {}, false, 'ok', /Every outside contributor/],
    ['first-time contributors only, check pinned', { forkApproval: none('first_time_contributors' as const) }, true, 'warn', /merged before.*pinned/],
    ['first-time contributors only, check not pinned', { forkApproval: none('first_time_contributors' as const) }, false, 'fail', /not pinned: such a job named 'PatchProof'/],
    ['accounts new to GitHub only, not pinned', { forkApproval: none('first_time_contributors_new_to_github' as const) }, false, 'fail', /accounts new to GitHub/],
    ['accounts new to GitHub only, pinned', { forkApproval: none('first_time_contributors_new_to_github' as const) }, true, 'warn', /accounts new to GitHub/],
    ['unreadable', { forkApproval: denied }, true, 'unknown', /could not be read/],
    [
      'private: fork workflows off',
      { private: true, privateForks: none({ runWorkflows: false, requireApproval: false, sendSecrets: false, sendWriteTokens: false }) },
      false,
      'ok',
      /do not run/
    ],
    [
      'private: run after approval',
      { private: true, privateForks: none({ runWorkflows: true, requireApproval: true, sendSecrets: false, sendWriteTokens: false }) },
      false,
      'ok',
      /wait for a maintainer's approval/
    ],
    [
      'private: run without approval, not pinned',
      { private: true, privateForks: none({ runWorkflows: true, requireApproval: false, sendSecrets: false, sendWriteTokens: false }) },
      false,
      'fail',
      /without approval/
    ],
    [
      'private: run with secrets',
      { private: true, privateForks: none({ runWorkflows: true, requireApproval: true, sendSecrets: true, sendWriteTokens: false }) },
      true,
      'fail',
      /with secrets, after approval/
    ],
    ['private: unreadable', { private: true, privateForks: denied }, true, 'unknown', /could not be read/]
  ])('%s', (_name, change, pinned, severity, en) => {
    const finding = forkFinding(facts(change), pinned);
    expect(finding.severity).toBe(severity);
    expect(finding.en).toMatch(en);
  });
});

describe('headRunsFinding: who posted the check on the given head?', () => {
  const runs = (list: { appId: number; appSlug: string }[]): Partial<SetupFacts> => ({
    headRuns: { sha: 'b'.repeat(40), runs: none(list.map((r) => ({ ...r, conclusion: 'success' }))) }
  });
  it.each<[string, Partial<SetupFacts>, boolean, Severity | undefined]>([
    ['not asked', {}, true, undefined],
    ['only the App', runs([{ appId: APP, appSlug: 'patchproof' }]), true, 'ok'],
    [
      "the App and a job's check run from GitHub Actions, not pinned",
      runs([
        { appId: APP, appSlug: 'patchproof' },
        { appId: GITHUB_ACTIONS_APP_ID, appSlug: 'github-actions' }
      ]),
      false,
      'fail'
    ],
    [
      'the same, pinned',
      runs([
        { appId: APP, appSlug: 'patchproof' },
        { appId: GITHUB_ACTIONS_APP_ID, appSlug: 'github-actions' }
      ]),
      true,
      'warn'
    ],
    ['no App named: every run is a stranger', { ...runs([{ appId: GITHUB_ACTIONS_APP_ID, appSlug: 'github-actions' }]), expectedApp: undefined }, false, 'fail'],
    ['none', runs([]), false, 'ok'],
    ['unreadable', { headRuns: { sha: 'b'.repeat(40), runs: denied } }, false, 'unknown']
  ])('%s', (_name, change, pinned, severity) => {
    expect(headRunsFinding(facts(change), pinned)?.severity).toBe(severity);
  });
});

describe('diagnoseSetup and the report', () => {
  it('a sound setup: every answer ok, a neutral check run (never success), the title says it holds', () => {
    const findings = diagnoseSetup(facts());
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['required-check', 'ok'],
      ['app-key-environment', 'ok'],
      ['fork-workflows', 'ok']
    ]);
    const report = renderDoctorReport({ repository: 'octo-org/hello-world', defaultBranch: 'main', checkName: 'PatchProof', expectedApp: { id: APP } }, findings);
    expect(report.conclusion).toBe('neutral');
    expect(report.title).toBe('PatchProof doctor: setup holds');
  });

  it("a name-only check raises the fork answer to fail: a fork's job would satisfy it; the check run is a failure", () => {
    const findings = diagnoseSetup(facts({ classic: none([{ context: 'PatchProof', appId: null }]), forkApproval: none('first_time_contributors' as const) }));
    expect(findings.map((f) => f.severity)).toEqual(['fail', 'ok', 'fail']);
    expect(worstSeverity(findings)).toBe('fail');
    const report = renderDoctorReport({ repository: 'octo-org/hello-world', defaultBranch: 'main', checkName: 'PatchProof' }, findings);
    expect(report.conclusion).toBe('failure');
    expect(report.title).toBe('PatchProof doctor: 2 failed');
  });

  it('unknown outranks warn, fail outranks unknown; unknown is said plainly in the summary', () => {
    const f = (severity: Severity): Finding => ({ id: 'required-check', severity, en: '', zh: '', details: [] });
    expect(worstSeverity([f('ok'), f('warn'), f('unknown')])).toBe('unknown');
    expect(worstSeverity([f('unknown'), f('fail')])).toBe('fail');
    expect(worstSeverity([])).toBe('ok');
    const findings = diagnoseSetup(facts({ classic: denied, forkApproval: denied }));
    const report = renderDoctorReport({ repository: 'octo-org/hello-world', defaultBranch: 'main', checkName: 'PatchProof' }, findings);
    expect(report.conclusion).toBe('neutral');
    expect(report.title).toBe('PatchProof doctor: 2 unknown');
    expect(report.summary).toContain('`unknown` is never `ok`');
    expect(report.text).toContain('could not read (HTTP 403)');
  });

  it("the doctor's check run is never named like the gate's", () => {
    for (const name of ['PatchProof', 'gate / patchproof', 'x']) expect(doctorCheckName(name)).not.toBe(name);
  });

  it('setting text from GitHub cannot break out of the table: pipes and markup are escaped', () => {
    const findings = diagnoseSetup(
      facts({
        environment: {
          name: 'env | <img src=x>',
          facts: none({
            branchPolicy: { protectedBranches: false, customBranchPolicies: true },
            patterns: none([{ name: 'x|y*', type: 'branch' as const }]),
            requiredReviewers: false
          })
        }
      })
    );
    const report = renderDoctorReport({ repository: 'octo-org/hello-world', defaultBranch: 'main', checkName: 'PatchProof' }, findings);
    const row = report.summary.split('\n').find((line) => line.includes('App key limited')) ?? '';
    // Three cells: the row has exactly four unescaped pipes.
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(5);
    // Markup arrives escaped (a backslash before `<`), so it shows as text.
    expect(report.summary).toContain('\\<img');
    expect(report.summary).not.toMatch(/(?<!\\)<img/);
  });
});
