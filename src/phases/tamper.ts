import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tamperBlocking } from '../core/tamper.js';
import { screenChanges, type ChangedFile } from '../tamper/index.js';
import type { Phase } from './phase.js';

/**
 * The tamper screen (src/tamper/), on the host, once the diff is applied and the test surface reset:
 * the graded changes (changed non-test files) against the base tree's files. It runs nothing of the
 * candidate's; its record goes into the receipt (`tamper_screen`), and a finding withholds proof grade.
 */
export const tamper: Phase = {
  name: 'tamper',
  needs: [],
  side: 'candidate',
  labels: [],
  staged: async (ctx) => {
    if (ctx.request.recordObservations !== undefined) return;
    const decoder = new TextDecoder('utf-8', { fatal: true });
    // The graded paths (changed, not reset); their content as the diff applied it (null: deleted).
    const files: ChangedFile[] = [...ctx.graded.keys()].sort().map((path) => {
      const patched = ctx.applied.get(path) ?? null;
      let text: string | null = null;
      let invalidUtf8 = false;
      if (patched !== null) {
        try {
          text = decoder.decode(patched);
        } catch {
          text = patched.toString('utf8');
          invalidUtf8 = true;
        }
      }
      return { path, base: baseText(ctx.dirs.base, path), patched: text, ...(invalidUtf8 ? { invalidUtf8 } : {}) };
    });
    const screen = await screenChanges(files, ctx.request.witness.manifest.tamper_allow ?? []);
    ctx.state.tamper = screen;
    const blocking = tamperBlocking(screen);
    ctx.deps.log(
      `tamper screen: ${screen.files_screened} file(s) screened, ${screen.findings.length} finding(s)${
        blocking.length > 0
          ? `, ${blocking.length} withhold proof grade (${blocking
              .slice(0, 3)
              .map((f) => `${f.rule} ${f.path}:${f.line}`)
              .join(', ')}${blocking.length > 3 ? ', …' : ''})`
          : ''
      }${screen.not_screened.length > 0 ? `; not screened: ${screen.not_screened.length}` : ''}`
    );
  }
};

/** The base tree's text of a path: null when the base has no regular file there (a new file, or a link). */
function baseText(baseDir: string, path: string): string | null {
  const file = join(baseDir, ...path.split('/'));
  try {
    if (!lstatSync(file).isFile()) return null;
  } catch {
    return null;
  }
  return readFileSync(file).toString('utf8');
}
