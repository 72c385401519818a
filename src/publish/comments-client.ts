import { getOctokit } from '@actions/github';
import { InfrastructureError } from '../errors.js';

/**
 * The only file that writes issue comments: the screen mode's one comparison table on a tracking
 * issue or pull request. The comment carries a marker line; a later run updates the newest comment
 * that carries the marker and was written by a Bot account (a person quoting the marker is never
 * edited; another app's comment refuses the update with 403), and adds a new one only when there is none.
 */

export interface CommentsClient {
  /** Create or update the marked comment on issue `number`; returns its id and whether it was updated. */
  upsert(owner: string, repo: string, number: number, marker: string, body: string): Promise<{ id: number; updated: boolean }>;
}

function statusOf(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? String(status) : '?';
}

export function createCommentsClient(token: string, options: { baseUrl?: string } = {}): CommentsClient {
  const octokit = getOctokit(token, options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {});
  const fail = (what: string, error: unknown): never => {
    throw new InfrastructureError(`could not ${what} (HTTP ${statusOf(error)}): ${error instanceof Error ? error.message : String(error)}; the token needs issues: write`, {
      cause: error
    });
  };
  return {
    async upsert(owner, repo, number, marker, body) {
      const text = `${marker}\n${body}`;
      let comments: { id: number; body?: string; user: { type: string } | null }[] = [];
      try {
        comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 });
      } catch (error) {
        fail(`list the comments of #${number}`, error);
      }
      const marked = comments.filter((c) => c.body?.startsWith(`${marker}\n`) === true);
      // A person cannot write as a Bot account, so a marked comment of a person (quoting the marker) is never chosen;
      // another app's marked comment answers 403 to the update, and a new comment is written.
      const own = marked.filter((c) => c.user?.type === 'Bot').at(-1);
      if (own !== undefined) {
        try {
          const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: own.id, body: text });
          return { id: data.id, updated: true };
        } catch (error) {
          // Someone else's comment (403) or one deleted meanwhile (404): write a new one.
          if (statusOf(error) !== '403' && statusOf(error) !== '404') fail(`update comment ${own.id} on #${number}`, error);
        }
      }
      try {
        const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body: text });
        return { id: data.id, updated: false };
      } catch (error) {
        return fail(`comment on #${number}`, error);
      }
    }
  };
}
