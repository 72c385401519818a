import { approveProposal, createProposal, parseApproval, parseProposal } from '../../src/core/proposal.js';
import { ConfigurationError, VerificationError } from '../../src/errors.js';

const BASE = `sha256:${'1'.repeat(64)}` as const;
const DIFF = 'diff --git a/x.js b/x.js\n--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n';

describe('proposal and approval', () => {
  const proposal = createProposal(DIFF, BASE, '0.1.0');

  it('binds the diff and the base snapshot into a stable hash', () => {
    expect(proposal.proposal_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(createProposal(DIFF, BASE, '0.1.0').proposal_hash).toBe(proposal.proposal_hash);
    expect(createProposal(`${DIFF} `, BASE, '0.1.0').proposal_hash).not.toBe(proposal.proposal_hash);
    expect(createProposal(DIFF, `sha256:${'2'.repeat(64)}` as const, '0.1.0').proposal_hash).not.toBe(proposal.proposal_hash);
  });

  it('round-trips through JSON and re-derives every digest', () => {
    expect(parseProposal(JSON.parse(JSON.stringify(proposal)), 'p.json')).toEqual(proposal);
  });

  it('refuses a proposal whose diff was edited', () => {
    const edited = { ...proposal, diff: DIFF.replace('+b', '+c') };
    expect(() => parseProposal(edited, 'p.json')).toThrow(VerificationError);
  });

  it('refuses a proposal whose base was swapped', () => {
    const edited = { ...proposal, base_snapshot: `sha256:${'3'.repeat(64)}` };
    expect(() => parseProposal(edited, 'p.json')).toThrow(/proposal_hash does not match/);
  });

  it('refuses something that is not a proposal, naming the field', () => {
    expect(() => parseProposal({ schema: 'x' }, 'p.json')).toThrow(ConfigurationError);
  });

  it('approves only the exact full hash', () => {
    const approval = approveProposal(proposal, proposal.proposal_hash, 'run-1', 'alice', '0.1.0');
    expect(approval).toMatchObject({ proposal_hash: proposal.proposal_hash, run_id: 'run-1', approved_by: 'alice' });
    expect(() => approveProposal(proposal, proposal.proposal_hash.slice(0, 12), 'r', 'a', '0.1.0')).toThrow(/not a full hash/);
    expect(() => approveProposal(proposal, proposal.proposal_hash.toUpperCase(), 'r', 'a', '0.1.0')).toThrow(/not a full hash/);
    expect(() => approveProposal(proposal, 'f'.repeat(64), 'r', 'a', '0.1.0')).toThrow(VerificationError);
    expect(() => approveProposal(proposal, proposal.proposal_hash, ' ', 'a', '0.1.0')).toThrow(ConfigurationError);
  });

  it('checks an approval belongs to this proposal and was not edited', () => {
    const approval = approveProposal(proposal, proposal.proposal_hash, 'run-1', 'alice', '0.1.0');
    expect(parseApproval(JSON.parse(JSON.stringify(approval)), 'a.json', proposal)).toEqual(approval);
    expect(() => parseApproval({ ...approval, approved_by: 'mallory' }, 'a.json', proposal)).toThrow(/approval_digest does not match/);
    const other = createProposal(DIFF.replace('+b', '+z'), BASE, '0.1.0');
    expect(() => parseApproval(approval, 'a.json', other)).toThrow(/approves proposal/);
  });
});
