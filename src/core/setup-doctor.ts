/**
 * The setup check (`mode: doctor`), pure: the repository settings the doctor could read (or why it
 * could not) in, findings with a severity out. Three questions, each answered plainly:
 *  - can the required PatchProof check be satisfied by a check run of another source? A required
 *    check matched by name, or by name plus the GitHub Actions app, is satisfied by any check run of
 *    that name, and every workflow job creates one named after itself with no token at all: a pull
 *    request that adds a job named like the gate's check satisfies it. Only a source no pull request
 *    controls (a dedicated GitHub App's id) or a ruleset that requires the gate workflow pins it;
 *  - does the App key sit in an environment only the default branch may use?
 *  - do forks' workflows run without a maintainer's approval?
 * A setting that could not be read is `unknown`, never `ok`. Rendering is setup-doctor-report.ts.
 */

/** `ok`: as it should be; `warn`: weaker than it should be; `fail`: a setup problem; `unknown`: could not tell. */
export type Severity = 'ok' | 'warn' | 'fail' | 'unknown';

/** Worst first: a failure outweighs an unknown, an unknown a warning. */
export const SEVERITY_ORDER: readonly Severity[] = ['fail', 'unknown', 'warn', 'ok'];

/** The app every workflow job's check run comes from (GITHUB_TOKEN, and the job's own check run). */
export const GITHUB_ACTIONS_APP_ID = 15368;

/** A setting read, or why it could not be (the HTTP status and GitHub's message, or the network fault). */
export type Read<T> = { read: true; value: T } | { read: false; status?: number; reason: string };

/** One entry of classic branch protection's required status checks; `appId` null: any source. */
export interface ClassicCheck {
  context: string;
  appId: number | null;
}

/** A `required_status_checks` entry of an active ruleset; no `integrationId`: any source. */
export interface RulesetCheck {
  context: string;
  integrationId?: number;
  /** Where the ruleset is (`octo-org/hello-world`, an organization), for the report. */
  ruleset: string;
}

/** A `workflows` rule's workflow: the file, its repository, and the ref or commit it is read at. */
export interface RulesetWorkflow {
  path: string;
  repositoryId: number;
  ref?: string;
  sha?: string;
  ruleset: string;
}

/** The environment's deployment branch policy: null is "any branch may deploy". */
export type BranchPolicy = null | { protectedBranches: boolean; customBranchPolicies: boolean };

/** An environment as read: its branch policy, its name patterns (custom policies), and whether it needs a reviewer. */
export interface EnvironmentFacts {
  branchPolicy: BranchPolicy;
  /** Only read with custom policies. */
  patterns?: Read<{ name: string; type: 'branch' | 'tag' }[]>;
  requiredReviewers: boolean;
}

/** `GET .../actions/permissions/fork-pr-contributor-approval`: whose fork workflows wait for approval. */
export type ApprovalPolicy = 'first_time_contributors_new_to_github' | 'first_time_contributors' | 'all_external_contributors';

/** `GET .../actions/permissions/fork-pr-workflows-private-repos` (private repositories). */
export interface PrivateForkSettings {
  runWorkflows: boolean;
  requireApproval: boolean;
  sendSecrets: boolean;
  sendWriteTokens: boolean;
}

/** A check run of the gate's name on a commit, with the app it came from. */
export interface NamedCheckRun {
  appId: number;
  appSlug: string;
  conclusion: string | null;
}

/** Everything the doctor read. */
export interface SetupFacts {
  /** `owner/repo`. */
  repository: string;
  repositoryId: number;
  defaultBranch: string;
  private: boolean;
  /** The gate's check name (settings.checkName). */
  checkName: string;
  /** The App the check must come from (app-id, or expected-app), if known. */
  expectedApp?: { id: number; slug?: string };
  /** The gate's workflow file in this repository, for a ruleset's `workflows` rule. */
  gateWorkflow: string;
  /** Classic protection's required checks of the default branch; null when the branch requires none (404 "not protected" / "not enabled"). */
  classic: Read<ClassicCheck[] | null>;
  /** The active rulesets' rules on the default branch. */
  rules: Read<{ checks: RulesetCheck[]; workflows: RulesetWorkflow[] }>;
  /** The environment holding the App key (input app-environment); absent when none was named. value null: it does not exist (404). */
  environment?: { name: string; facts: Read<EnvironmentFacts | null> };
  /** Public repositories: the fork approval policy. */
  forkApproval?: Read<ApprovalPolicy>;
  /** Private repositories: the fork workflow settings. */
  privateForks?: Read<PrivateForkSettings>;
  /** With App credentials: whether the key got an installation token. */
  appCredentials?: Read<{ appId: number }>;
  /** With `head`: the check runs of the gate's name on that commit. */
  headRuns?: { sha: string; runs: Read<NamedCheckRun[]> };
}

/** The closed set of questions. */
export type FindingId = 'required-check' | 'app-key-environment' | 'fork-workflows' | 'app-credentials' | 'head-check-runs';

/** One answer: a severity, one sentence in each language, and the facts behind it. */
export interface Finding {
  id: FindingId;
  severity: Severity;
  en: string;
  zh: string;
  /** The settings read, as short lines (names and numbers, not prose). */
  details: string[];
}

/** Why a setting could not be read, on one line. */
export function unreadable(what: string, read: { status?: number; reason: string }): string {
  return `${what}: could not read${read.status !== undefined ? ` (HTTP ${read.status})` : ''}: ${read.reason}`;
}

const appName = (id: number | null, expected?: { id: number; slug?: string }): string =>
  id === null
    ? 'any source'
    : id === GITHUB_ACTIONS_APP_ID
      ? `GitHub Actions (app ${id})`
      : expected !== undefined && expected.id === id && expected.slug !== undefined
        ? `${expected.slug} (app ${id})`
        : `app ${id}`;

/** How one requirement of the check name is sourced. */
type Sourcing = 'any' | 'actions' | 'pinned' | 'other-app' | 'unconfirmed-app';

function sourcing(appId: number | null, expected: SetupFacts['expectedApp']): Sourcing {
  if (appId === null) return 'any';
  // Before `pinned`: even when it is the app named as expected, every workflow job posts as it.
  if (appId === GITHUB_ACTIONS_APP_ID) return 'actions';
  if (expected === undefined) return 'unconfirmed-app';
  return appId === expected.id ? 'pinned' : 'other-app';
}

const normalisePath = (path: string): string => path.replace(/^\.\//, '');

/** A `workflows` entry that runs the gate file of this repository: pinned at the default branch or a commit, or at a ref others may push. */
function workflowPin(w: RulesetWorkflow, facts: SetupFacts): 'pinned' | 'weak' | 'other' {
  if (w.repositoryId !== facts.repositoryId || normalisePath(w.path) !== normalisePath(facts.gateWorkflow)) return 'other';
  if (w.sha !== undefined && /^[0-9a-f]{40}$/.test(w.sha)) return 'pinned';
  if (w.ref === undefined || w.ref === facts.defaultBranch || w.ref === `refs/heads/${facts.defaultBranch}`) return 'pinned';
  return 'weak';
}

/** Can the required check be satisfied by another source? */
export function requiredCheckFinding(facts: SetupFacts): Finding {
  const name = facts.checkName;
  const details: string[] = [];
  const requirements: { where: string; appId: number | null }[] = [];
  if (facts.classic.read) {
    if (facts.classic.value === null) details.push(`classic branch protection of ${facts.defaultBranch}: no required status checks`);
    for (const c of facts.classic.value ?? []) if (c.context === name) requirements.push({ where: 'classic branch protection', appId: c.appId });
  } else details.push(unreadable(`classic branch protection of ${facts.defaultBranch}`, facts.classic));
  let pin: 'pinned' | 'weak' | undefined;
  if (facts.rules.read) {
    for (const c of facts.rules.value.checks) if (c.context === name) requirements.push({ where: `ruleset of ${c.ruleset}`, appId: c.integrationId ?? null });
    for (const w of facts.rules.value.workflows) {
      const kind = workflowPin(w, facts);
      const at = w.sha !== undefined ? `@${w.sha}` : w.ref !== undefined ? `@${w.ref}` : '';
      details.push(`ruleset of ${w.ruleset} requires workflow ${w.path}${at} of repository ${w.repositoryId}${kind === 'other' ? ' (not the gate workflow)' : ''}`);
      if (kind === 'pinned') pin = 'pinned';
      else if (kind === 'weak' && pin === undefined) pin = 'weak';
    }
  } else details.push(unreadable(`rulesets of ${facts.defaultBranch}`, facts.rules));
  for (const r of requirements) details.push(`${r.where} requires '${name}' from ${appName(r.appId, facts.expectedApp)}`);
  const kinds = new Set(requirements.map((r) => sourcing(r.appId, facts.expectedApp)));
  const bothRead = facts.classic.read && facts.rules.read;
  const finding = (severity: Severity, en: string, zh: string): Finding => ({ id: 'required-check', severity, en, zh, details });

  if (kinds.has('pinned') || pin === 'pinned') {
    const also =
      kinds.has('any') || kinds.has('actions') ? ' Another rule accepts it from any source or from GitHub Actions; that adds nothing, but the pinned rule still holds.' : '';
    return finding(
      'ok',
      (kinds.has('pinned')
        ? `'${name}' is required from ${appName(facts.expectedApp?.id ?? null, facts.expectedApp)}, which no pull request controls.`
        : `A ruleset requires the gate workflow ${facts.gateWorkflow} itself, read from the default branch or a pinned commit.`) + also,
      kinds.has('pinned')
        ? `必需检查 '${name}' 限定来自 PatchProof 专用 App，拉取请求无法伪造。`
        : `规则集要求门禁工作流 ${facts.gateWorkflow} 本身通过（取自默认分支或固定提交）。`
    );
  }
  if (kinds.has('unconfirmed-app')) {
    return finding(
      'warn',
      `'${name}' is required from a GitHub App, but doctor was not told which App is PatchProof's: give app-id or expected-app to confirm the source.`,
      `'${name}' 限定来自某个 GitHub App，但未告知哪个是 PatchProof 的 App：请提供 app-id 或 expected-app 以确认来源。`
    );
  }
  if (pin === 'weak') {
    return finding(
      'warn',
      'A ruleset requires the gate workflow, but reads it at a ref other than the default branch: whoever may push that ref chooses the workflow.',
      '规则集要求门禁工作流，但读取的不是默认分支上的版本：能推送该引用的人即可改写该工作流。'
    );
  }
  if (kinds.has('other-app')) {
    return finding(
      'fail',
      `'${name}' is required from another App than PatchProof's (${appName(facts.expectedApp?.id ?? null, facts.expectedApp)}): the gate's check does not count, and that App's does.`,
      `'${name}' 被限定来自另一个 App，而非 PatchProof 的 App：门禁的检查不计入，那个 App 的检查却计入。`
    );
  }
  if (kinds.has('any') || kinds.has('actions')) {
    const how = kinds.has('any') ? 'by name only (any source)' : 'with GitHub Actions as the source';
    const zhHow = kinds.has('any') ? '仅按名称（任意来源）' : '以 GitHub Actions 为来源';
    if (!bothRead) {
      return finding(
        'unknown',
        `'${name}' is required ${how}, which a pull request's own job named '${name}' satisfies; the other settings could not be read, so doctor cannot tell whether another rule pins it.`,
        `'${name}' 被${zhHow}要求，拉取请求中同名的作业即可满足；其余设置无法读取，无法判断是否另有规则将其限定。`
      );
    }
    return finding(
      'fail',
      `'${name}' is required ${how}: any workflow job named '${name}' satisfies it (a pull request can add one; a fork's, once its workflows run). Require it from PatchProof's GitHub App, or require the gate workflow in a ruleset.`,
      `'${name}' 被${zhHow}要求：任何名为 '${name}' 的工作流作业都能满足它（拉取请求可以自行添加）。请限定来自 PatchProof 的 GitHub App，或在规则集中要求门禁工作流。`
    );
  }
  if (!bothRead) {
    return finding(
      'unknown',
      `Doctor could not read every rule of ${facts.defaultBranch} and found none requiring '${name}': give a token that can read branch protection (settings-token).`,
      `无法读取 ${facts.defaultBranch} 的全部规则，且未找到要求 '${name}' 的规则：请提供能读取分支保护的令牌（settings-token）。`
    );
  }
  return finding(
    'fail',
    `No rule of ${facts.defaultBranch} requires '${name}': a failing verdict blocks nothing.`,
    `${facts.defaultBranch} 没有任何规则要求 '${name}'：失败的判定拦不住任何合并。`
  );
}

/** Does the App key sit in an environment only the default branch may use? */
export function environmentFinding(facts: SetupFacts): Finding {
  const env = facts.environment;
  const finding = (severity: Severity, en: string, zh: string, details: string[] = []): Finding => ({ id: 'app-key-environment', severity, en, zh, details });
  if (env === undefined) {
    return finding(
      'unknown',
      'Not checked: the environment holding the App key was not named (input app-environment).',
      '未检查：未指定保存 App 私钥的环境（输入 app-environment）。'
    );
  }
  if (!env.facts.read) {
    return finding('unknown', `The environment '${env.name}' could not be read.`, `无法读取环境 '${env.name}'。`, [unreadable(`environment ${env.name}`, env.facts)]);
  }
  const value = env.facts.value;
  if (value === null) {
    return finding(
      'fail',
      `The environment '${env.name}' does not exist: the key is not in it, and a job that names it creates it open to every branch.`,
      `环境 '${env.name}' 不存在：私钥不在其中，且引用它的作业会创建一个对所有分支开放的环境。`
    );
  }
  const reviewers = [`required reviewers: ${value.requiredReviewers ? 'yes' : 'no'}`];
  if (value.branchPolicy === null) {
    const details = ['deployment branches: any branch', ...reviewers];
    return value.requiredReviewers
      ? finding(
          'warn',
          `Any branch may use '${env.name}'; each job waits for a reviewer, but nothing limits the App key to ${facts.defaultBranch}.`,
          `任何分支都可使用环境 '${env.name}'；虽每次需审批，但私钥并未限定于 ${facts.defaultBranch}。`,
          details
        )
      : finding(
          'fail',
          `Any branch may use '${env.name}': a workflow on any pushed branch can read the App key and post '${facts.checkName}' as the App.`,
          `任何分支都可使用环境 '${env.name}'：任一推送分支上的工作流都能读取 App 私钥，并以该 App 身份发布 '${facts.checkName}'。`,
          details
        );
  }
  if (value.branchPolicy.protectedBranches) {
    return finding(
      'ok',
      `Only protected branches may use '${env.name}' (${facts.defaultBranch} and any other branch with protection rules).`,
      `只有受保护分支可使用环境 '${env.name}'（${facts.defaultBranch} 及其他设有保护规则的分支）。`,
      ['deployment branches: protected branches', ...reviewers]
    );
  }
  const patterns = value.patterns;
  if (patterns === undefined || !patterns.read) {
    return finding(
      'unknown',
      `'${env.name}' limits deployments to name patterns, which could not be read.`,
      `环境 '${env.name}' 按名称模式限定部署分支，但无法读取这些模式。`,
      patterns === undefined ? [] : [unreadable(`deployment branch policies of ${env.name}`, patterns)]
    );
  }
  const details = [...patterns.value.map((p) => `deployment ${p.type} pattern: ${p.name}`), ...reviewers];
  // Only the exact name counts: a pattern that also matches the default branch (`ma*`, `*`) matches others too.
  const others = patterns.value.filter((p) => p.type !== 'branch' || p.name !== facts.defaultBranch);
  if (patterns.value.length === 0) {
    return finding('warn', `'${env.name}' allows no branch at all: the gate's job cannot use it either.`, `环境 '${env.name}' 不允许任何分支：门禁作业也无法使用它。`, details);
  }
  if (others.length > 0) {
    return finding(
      'fail',
      `'${env.name}' is open beyond ${facts.defaultBranch}: ${others.map((p) => `${p.type} ${p.name}`).join(', ')} may use the App key.`,
      `环境 '${env.name}' 不止对 ${facts.defaultBranch} 开放：${others.map((p) => `${p.type} ${p.name}`).join('、')} 也能使用 App 私钥。`,
      details
    );
  }
  return finding('ok', `Only ${facts.defaultBranch} may use '${env.name}'.`, `只有 ${facts.defaultBranch} 可使用环境 '${env.name}'。`, details);
}

/** Do forks' workflows run without approval? Raised to `fail` when the check is not pinned: then such a job can satisfy it. */
export function forkFinding(facts: SetupFacts, checkPinned: boolean): Finding {
  const finding = (severity: Severity, en: string, zh: string, details: string[] = []): Finding => ({ id: 'fork-workflows', severity, en, zh, details });
  const exposed = (en: string, zh: string, details: string[]): Finding =>
    checkPinned
      ? finding('warn', `${en} The required check is pinned, so their jobs cannot satisfy it.`, `${zh} 必需检查已被限定，这些作业无法满足它。`, details)
      : finding(
          'fail',
          `${en} The required check is not pinned: such a job named '${facts.checkName}' can satisfy it.`,
          `${zh} 必需检查未被限定：名为 '${facts.checkName}' 的此类作业即可满足它。`,
          details
        );
  if (facts.private) {
    const forks = facts.privateForks;
    if (forks === undefined || !forks.read) {
      return finding(
        'unknown',
        "The private repository's fork workflow settings could not be read.",
        '无法读取私有仓库的复刻工作流设置。',
        forks === undefined ? [] : [unreadable('fork pull request workflow settings', forks)]
      );
    }
    const s = forks.value;
    const details = [
      `run workflows from fork pull requests: ${s.runWorkflows}`,
      `require approval: ${s.requireApproval}`,
      `send secrets and variables: ${s.sendSecrets}`,
      `send write tokens: ${s.sendWriteTokens}`
    ];
    if (!s.runWorkflows) return finding('ok', "Forks' workflows do not run in this private repository.", '此私有仓库不运行复刻的工作流。', details);
    if (s.sendSecrets || s.sendWriteTokens) {
      const what = [s.sendSecrets ? 'secrets' : '', s.sendWriteTokens ? 'write tokens' : ''].filter((x) => x !== '');
      const zhWhat = [s.sendSecrets ? '机密' : '', s.sendWriteTokens ? '写权限令牌' : ''].filter((x) => x !== '');
      return finding(
        'fail',
        `Forks' workflows run with ${what.join(' and ')}${s.requireApproval ? ', after approval' : ', without approval'}.`,
        `复刻的工作流可获得${zhWhat.join('和')}${s.requireApproval ? '（需审批）' : '（无需审批）'}。`,
        details
      );
    }
    if (s.requireApproval) return finding('ok', "Forks' workflows wait for a maintainer's approval.", '复刻的工作流需维护者审批后才运行。', details);
    return exposed("Forks' workflows run without approval.", '复刻的工作流无需审批即运行。', details);
  }
  const approval = facts.forkApproval;
  if (approval === undefined || !approval.read) {
    return finding(
      'unknown',
      'The fork pull request approval policy could not be read.',
      '无法读取复刻拉取请求的审批策略。',
      approval === undefined ? [] : [unreadable('fork pull request approval policy', approval)]
    );
  }
  const details = [`approval policy: ${approval.value}`];
  switch (approval.value) {
    case 'all_external_contributors':
      return finding('ok', "Every outside contributor's workflows wait for a maintainer's approval.", '所有外部贡献者的工作流都需维护者审批。', details);
    case 'first_time_contributors':
      return exposed(
        "Forks' workflows run without approval for any contributor who has had a pull request merged before.",
        '曾有拉取请求被合并的贡献者，其复刻工作流无需审批即运行。',
        details
      );
    case 'first_time_contributors_new_to_github':
      return exposed(
        "Forks' workflows run without approval for every contributor but accounts new to GitHub.",
        '除新注册的 GitHub 账户外，所有贡献者的复刻工作流都无需审批即运行。',
        details
      );
  }
}

/** With App credentials: does the key get an installation token on this repository? */
export function appCredentialsFinding(read: Read<{ appId: number }>): Finding {
  return read.read
    ? {
        id: 'app-credentials',
        severity: 'ok',
        en: `The App key works: app ${read.value.appId} is installed on the repository.`,
        zh: `App 私钥有效：App ${read.value.appId} 已安装在此仓库。`,
        details: []
      }
    : {
        id: 'app-credentials',
        severity: 'fail',
        en: 'The App key got no installation token: the gate cannot post its check as the App.',
        zh: '该 App 私钥无法获取安装令牌：门禁无法以 App 身份发布检查。',
        details: [unreadable('installation token', read)]
      };
}

/**
 * With `head`: the check runs of the gate's name on that commit, by source. One from any app but the
 * expected App (or, with no App named, any at all beside the gate's own) is what a required check by
 * name would accept: `fail` unless the check is pinned.
 */
export function headRunsFinding(facts: SetupFacts, checkPinned: boolean): Finding | undefined {
  const head = facts.headRuns;
  if (head === undefined) return undefined;
  const name = facts.checkName;
  const finding = (severity: Severity, en: string, zh: string, details: string[]): Finding => ({ id: 'head-check-runs', severity, en, zh, details });
  if (!head.runs.read) return finding('unknown', `The check runs of ${head.sha} could not be read.`, `无法读取 ${head.sha} 的检查运行。`, [unreadable('check runs', head.runs)]);
  const runs = head.runs.value;
  const details = runs.map((r) => `'${name}' from ${r.appSlug} (app ${r.appId}): ${r.conclusion ?? 'not completed'}`);
  if (runs.length === 0) return finding('ok', `No check run named '${name}' on ${head.sha}.`, `${head.sha} 上没有名为 '${name}' 的检查运行。`, details);
  const expected = facts.expectedApp;
  const strangers = expected === undefined || expected.id === GITHUB_ACTIONS_APP_ID ? runs : runs.filter((r) => r.appId !== expected.id);
  if (expected !== undefined && expected.id !== GITHUB_ACTIONS_APP_ID && strangers.length === 0) {
    return finding(
      'ok',
      `Every check run named '${name}' on ${head.sha} is from PatchProof's App.`,
      `${head.sha} 上所有名为 '${name}' 的检查运行都来自 PatchProof 的 App。`,
      details
    );
  }
  const sources = [...new Set(strangers.map((r) => `${r.appSlug} (app ${r.appId})`))].join(', ');
  if (checkPinned) {
    return finding(
      'warn',
      `${head.sha} carries '${name}' from ${sources}; the pinned rule does not count it.`,
      `${head.sha} 上有来自 ${sources} 的 '${name}'；已限定的规则不计入它。`,
      details
    );
  }
  return finding(
    'fail',
    expected === undefined || expected.id === GITHUB_ACTIONS_APP_ID
      ? `${head.sha} carries '${name}' from ${sources}, and without a dedicated App nothing tells the gate's own check run from a job named '${name}': any of them can satisfy the requirement.`
      : `${head.sha} carries '${name}' from ${sources}, not from PatchProof's App, and nothing pins the requirement to that App: such a check run can satisfy it.`,
    expected === undefined || expected.id === GITHUB_ACTIONS_APP_ID
      ? `${head.sha} 上有来自 ${sources} 的 '${name}'；没有专用 App，就无法区分门禁自己的检查与名为 '${name}' 的作业：任何一个都能满足要求。`
      : `${head.sha} 上有来自 ${sources} 的 '${name}'，并非 PatchProof 的 App 所发，而要求并未限定来源：此类检查运行即可满足它。`,
    details
  );
}

/** Every finding, in a fixed order. */
export function diagnoseSetup(facts: SetupFacts): Finding[] {
  const check = requiredCheckFinding(facts);
  const pinned = check.severity === 'ok';
  const findings = [check, environmentFinding(facts), forkFinding(facts, pinned)];
  if (facts.appCredentials !== undefined) findings.push(appCredentialsFinding(facts.appCredentials));
  const head = headRunsFinding(facts, pinned);
  if (head !== undefined) findings.push(head);
  return findings;
}

/** The worst severity of `findings` (`ok` for none). */
export function worstSeverity(findings: readonly Finding[]): Severity {
  for (const severity of SEVERITY_ORDER) if (findings.some((f) => f.severity === severity)) return severity;
  return 'ok';
}
