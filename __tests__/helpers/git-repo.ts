import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** A real git repository in a temp folder, for tests that need real `git diff` output. */
export class GitRepo {
  private constructor(readonly dir: string) {}

  static create(prefix: string): GitRepo {
    const repo = new GitRepo(mkdtempSync(join(tmpdir(), prefix)));
    repo.git('init', '-q');
    return repo;
  }

  git(...args: string[]): string {
    return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'core.autocrlf=false', ...args], {
      cwd: this.dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // The developer's own git configuration (noprefix, colour, renames) must not change the output.
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }
    });
  }

  write(path: string, content: string | Buffer): void {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), content);
  }

  remove(path: string): void {
    unlinkSync(join(this.dir, path));
  }

  commit(): void {
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', 'base');
  }

  /** Stage everything and print the staged diff; renames stay off unless the arguments ask for rename, copy or break detection. */
  diff(...args: string[]): string {
    this.git('add', '-A');
    const detects = args.some((a) => /^(-[MCB]|--find-renames|--find-copies|--break-rewrites|--no-renames)/.test(a));
    return this.git('diff', '--cached', '--no-color', ...(detects ? [] : ['--no-renames']), ...args);
  }

  /** Every file in the work tree (not .git), by repository path. */
  tree(): Map<string, Buffer> {
    const files = new Map<string, Buffer>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== '.git') walk(full);
        } else {
          files.set(relative(this.dir, full).split('\\').join('/'), readFileSync(full));
        }
      }
    };
    walk(this.dir);
    return files;
  }
}
