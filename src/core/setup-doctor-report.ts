import { codeSpan, escapeMarkdown } from './markdown.js';
import { type Finding, type FindingId, type Severity } from './setup-doctor.js';

/**
 * The doctor's answer as Markdown, in English and Chinese: a table of the questions and a list of
 * the settings read. Pure. The same text is the job summary and the doctor's check run; every
 * setting GitHub returned (names, patterns, app slugs) is escaped or code-spanned.
 */

/** What the report is about. */
export interface DoctorSubject {
  repository: string;
  defaultBranch: string;
  checkName: string;
  expectedApp?: { id: number; slug?: string };
}

/** The rendered report and the check run's conclusion. */
export interface DoctorReport {
  title: string;
  summary: string;
  text: string;
  /**
   * `failure` when any finding failed (a setup problem must be visible), else `neutral`: the doctor
   * judges no candidate, so it never posts success, and its check is named apart from the gate's.
   */
  conclusion: 'failure' | 'neutral';
}

const MARK: Record<Severity, string> = { ok: '✅ ok', warn: '⚠️ warn', fail: '❌ fail', unknown: '❔ unknown' };

const QUESTION: Record<FindingId, string> = {
  'required-check': 'Can another source satisfy the required check? / 必需检查能否被其他来源满足？',
  'app-key-environment': 'Is the App key limited to the default branch? / App 私钥是否仅限默认分支使用？',
  'fork-workflows': "Do forks' workflows run without approval? / 复刻的工作流是否无需审批即运行？",
  'app-credentials': 'Does the App key work? / App 私钥是否有效？',
  'head-check-runs': 'Who posted the check on the given head? / 指定提交上的检查由谁发布？'
};

/** The check run's name: the gate's name and a suffix, so no rule requiring the gate's check can match it. */
export function doctorCheckName(checkName: string): string {
  return `${checkName} doctor`;
}

function count(findings: readonly Finding[], severity: Severity): number {
  return findings.filter((f) => f.severity === severity).length;
}

/** Render the findings; the title counts what is not ok. */
export function renderDoctorReport(subject: DoctorSubject, findings: readonly Finding[]): DoctorReport {
  const fails = count(findings, 'fail');
  const unknowns = count(findings, 'unknown');
  const warns = count(findings, 'warn');
  const parts = [fails > 0 ? `${fails} failed` : '', unknowns > 0 ? `${unknowns} unknown` : '', warns > 0 ? `${warns} to improve` : ''].filter((p) => p !== '');
  const title = `PatchProof doctor: ${parts.length > 0 ? parts.join(', ') : 'setup holds'}`;
  const app = subject.expectedApp;
  const summary = [
    `Setup check of ${codeSpan(subject.repository)}, default branch ${codeSpan(subject.defaultBranch)}, required check ${codeSpan(subject.checkName)}` +
      (app !== undefined ? `, PatchProof's App ${app.slug !== undefined ? `${codeSpan(app.slug)} ` : ''}(id ${app.id})` : ', no App named') +
      '.',
    `配置检查：仓库 ${codeSpan(subject.repository)}，默认分支 ${codeSpan(subject.defaultBranch)}，必需检查 ${codeSpan(subject.checkName)}。`,
    '',
    '| | Question / 问题 | Answer / 结论 |',
    '| --- | --- | --- |',
    ...findings.map((f) => `| ${MARK[f.severity]} | ${QUESTION[f.id]} | ${escapeMarkdown(f.en, 1000)}<br>${escapeMarkdown(f.zh, 1000)} |`),
    ...(unknowns > 0
      ? [
          '',
          '`unknown` is never `ok`: a setting doctor could not read with its token, or was not told to check (docs/action.md, "Setup check"). / `unknown` 不等于 `ok`：此令牌无法读取该设置，或未被要求检查。'
        ]
      : [])
  ].join('\n');
  const text = [
    '### Settings read / 读取到的设置',
    '',
    ...findings.flatMap((f) => [`**${f.id}**`, '', ...(f.details.length > 0 ? f.details.map((d) => `- ${codeSpan(d, { max: 1000 })}`) : ['- (none)']), ''])
  ].join('\n');
  return { title, summary, text, conclusion: fails > 0 ? 'failure' : 'neutral' };
}
