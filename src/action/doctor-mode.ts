import { diagnoseSetup, worstSeverity, type Finding, type FindingId, type Read, type SetupFacts, type Severity } from '../core/setup-doctor.js';
import { doctorCheckName, renderDoctorReport } from '../core/setup-doctor-report.js';
import { ConfigurationError, InfrastructureError } from '../errors.js';
import type { ActionSettings, GitHubAppSettings } from '../inputs/action-settings.js';
import { splitRepository } from '../inputs/event.js';
import { readRunnerContext } from '../inputs/runner-context.js';
import { createChecksClient } from '../publish/checks-client.js';
import type { ChecksClient, RenderedCheck, StepOutcome } from '../publish/ports.js';
import { createAppInstallationToken, type AppTokenTarget } from './app-token.js';
import { writeSummary, type ModeResult } from './mode.js';
import { createRepositorySettingsReader, type RepositorySettingsReader } from './repo-settings-client.js';

/**
 * Doctor mode, the setup check: with the token it has, read the default branch's branch protection
 * and rulesets, the environment that holds the App key, and the fork pull request settings, and
 * answer plainly (core/setup-doctor.ts) whether the required check can be satisfied by another
 * source, whether the App key is limited to the default branch, and whether forks' workflows run
 * without approval. The answer goes to the job summary and to a check run of its own name
 * (`<check-name> doctor`, so no rule requiring the gate's check can match it): `failure` when an
 * answer fails, else `neutral`. It judges no candidate: its verdict is `failed` (the step fails, a
 * setup problem is visible) or `checked`, never `passed`. A setting it cannot read is `unknown`
 * and a warning, never `ok`.
 */

/** The side effects of doctor mode, so tests can hand in their own. */
export interface DoctorModeDeps {
  env: NodeJS.ProcessEnv;
  settingsReader(token: string, baseUrl: string): RepositorySettingsReader;
  checksClient(token: string, baseUrl: string): ChecksClient;
  appToken(app: GitHubAppSettings, target: AppTokenTarget): Promise<string>;
}

/** The production side effects. */
export function defaultDoctorModeDeps(): DoctorModeDeps {
  return {
    env: process.env,
    settingsReader: createRepositorySettingsReader,
    checksClient: (token, baseUrl) => createChecksClient(token, { baseUrl }),
    appToken: createAppInstallationToken
  };
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);

/** The App the required check must come from: app-id, expected-app (an id, or a slug GitHub resolves), which must agree. */
async function expectedAppOf(settings: ActionSettings, reader: RepositorySettingsReader): Promise<SetupFacts['expectedApp']> {
  const fromKey = settings.app?.appId;
  const given = settings.doctor?.expectedApp;
  let expected: SetupFacts['expectedApp'];
  if (given !== undefined && 'slug' in given) {
    const found = await reader.appBySlug(given.slug);
    if (!found.read) {
      if (found.status === 404) throw new ConfigurationError(`expected-app '${given.slug}' is not a GitHub App slug GitHub knows; give the slug or id from the app's page`);
      throw new InfrastructureError(`could not look up the GitHub App '${given.slug}'${found.status !== undefined ? ` (HTTP ${found.status})` : ''}: ${found.reason}`);
    }
    expected = { id: found.value.id, slug: found.value.slug };
  } else if (given !== undefined) expected = { id: given.id };
  if (expected !== undefined && fromKey !== undefined && expected.id !== fromKey) {
    throw new ConfigurationError(`expected-app is app ${expected.id}, but app-id is ${fromKey}; they name PatchProof's App twice: give one, or the same`);
  }
  return expected ?? (fromKey !== undefined ? { id: fromKey } : undefined);
}

/** Run doctor mode. */
export async function doctorMode(settings: ActionSettings, outcome: StepOutcome, deps: DoctorModeDeps = defaultDoctorModeDeps()): Promise<ModeResult> {
  const inputs = settings.doctor;
  if (inputs === undefined) throw new ConfigurationError('doctor mode was started without its inputs');
  const context = readRunnerContext(deps.env, ['repository', 'sha']);
  const { owner, repo } = splitRepository(context.repository);
  const reader = deps.settingsReader(inputs.settingsToken ?? settings.token, context.apiUrl);
  let repository: Awaited<ReturnType<RepositorySettingsReader['repository']>>;
  try {
    repository = await reader.repository(owner, repo);
  } catch (error) {
    if (!(error instanceof InfrastructureError)) throw error;
    const message = `doctor could not read the repository, so it checked nothing: ${error.message}`;
    await writeSummary(outcome, { title: 'PatchProof doctor: nothing checked / 未能检查', summary: message, annotations: [] });
    return { verdict: 'inconclusive', proofGrade: false, message };
  }
  const branch = repository.defaultBranch;
  const expectedApp = await expectedAppOf(settings, reader);
  const appCredentials = async (app: GitHubAppSettings): Promise<Read<{ appId: number }>> => {
    try {
      await deps.appToken(app, { owner, repo, apiUrl: context.apiUrl });
      return { read: true, value: { appId: app.appId } };
    } catch (error) {
      return { read: false, reason: errorText(error) };
    }
  };
  const [classic, rules, environment, privateForks, forkApproval, credentials, headRuns] = await Promise.all([
    reader.classicChecks(owner, repo, branch),
    reader.branchRules(owner, repo, branch),
    inputs.appEnvironment !== undefined ? reader.environment(owner, repo, inputs.appEnvironment) : undefined,
    repository.private ? reader.privateForkSettings(owner, repo) : undefined,
    repository.private ? undefined : reader.forkApproval(owner, repo),
    settings.app !== undefined ? appCredentials(settings.app) : undefined,
    // Check runs are read with github-token (checks: read), which a settings token may lack.
    settings.head !== undefined ? deps.settingsReader(settings.token, context.apiUrl).checkRunsNamed(owner, repo, settings.head, settings.checkName) : undefined
  ]);
  const facts: SetupFacts = {
    repository: `${owner}/${repo}`,
    repositoryId: repository.id,
    defaultBranch: branch,
    private: repository.private,
    checkName: settings.checkName,
    ...(expectedApp !== undefined ? { expectedApp } : {}),
    gateWorkflow: inputs.gateWorkflow,
    classic,
    rules,
    ...(inputs.appEnvironment !== undefined && environment !== undefined ? { environment: { name: inputs.appEnvironment, facts: environment } } : {}),
    ...(privateForks !== undefined ? { privateForks } : {}),
    ...(forkApproval !== undefined ? { forkApproval } : {}),
    ...(credentials !== undefined ? { appCredentials: credentials } : {}),
    ...(settings.head !== undefined && headRuns !== undefined ? { headRuns: { sha: settings.head, runs: headRuns } } : {})
  };
  const findings = diagnoseSetup(facts);
  const report = renderDoctorReport(
    { repository: facts.repository, defaultBranch: branch, checkName: settings.checkName, ...(expectedApp !== undefined ? { expectedApp } : {}) },
    findings
  );
  const check: RenderedCheck = { title: report.title, summary: report.summary, text: report.text, annotations: [] };
  await writeSummary(outcome, check);
  for (const f of findings) if (f.severity !== 'ok') outcome.warning(`doctor ${f.id}: ${f.severity}: ${f.en}`);
  try {
    await deps.checksClient(settings.token, context.apiUrl).publish({ owner, repo, headSha: context.sha, name: doctorCheckName(settings.checkName) }, report.conclusion, check);
  } catch (error) {
    // The job summary holds the answer already; a token without checks: write only loses the check run.
    outcome.warning(`the doctor's check run could not be posted (the job summary has the answer): ${errorText(error)}`);
  }
  return resultOf(findings, report.title);
}

function resultOf(findings: readonly Finding[], title: string): ModeResult {
  const worst = worstSeverity(findings);
  const bySeverity: Partial<Record<FindingId, Severity>> = Object.fromEntries(findings.map((f) => [f.id, f.severity]));
  const failed = findings.filter((f) => f.severity === 'fail');
  return {
    verdict: failed.length > 0 ? 'failed' : 'checked',
    proofGrade: false,
    doctor: { worst, findings: bySeverity },
    message: failed.length > 0 ? `${title}: ${failed.map((f) => `${f.id}: ${f.en}`).join(' ')}` : `${title} (doctor judges no candidate)`
  };
}
