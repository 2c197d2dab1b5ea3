import { describe, expect, it } from 'vitest';
import { mayReadJob } from './job-access';

const staff = (role: string, id: number) => ({ kind: 'staff', role, actor: { actorType: 'staff', actorId: id } });

describe('job access (issue 27)', () => {
  it('the requester reads its own job; Admin reads every job; nobody else', () => {
    const asked = { actorType: 'staff', actorId: 7 };
    expect(mayReadJob(staff('AR Team', 7), asked)).toBe(true);
    expect(mayReadJob(staff('AR Team', 7), { actorType: 'staff', actorId: '7' })).toBe(true);
    expect(mayReadJob(staff('AR Team', 8), asked)).toBe(false);
    expect(mayReadJob(staff('Admin', 1), asked)).toBe(true);
    // The same id as another kind of actor is another person.
    const distributor = { kind: 'distributor', role: 'Distributor', actor: { actorType: 'distributor', actorId: 7 } };
    expect(mayReadJob(distributor, asked)).toBe(false);
    expect(mayReadJob(distributor, { actorType: 'distributor', actorId: 7 })).toBe(true);
  });

  it('scheduled, system, merchant and anonymous jobs: Admin only', () => {
    for (const requester of [
      null,
      undefined,
      {},
      { actorType: 'system', actorId: 'job:billing-run' },
      { actorType: 'merchant', actorId: 'store:4' },
      { actorType: 'anonymous', actorId: null },
      { actorType: 'staff', actorId: null },
    ]) {
      expect(mayReadJob(staff('Admin', 1), requester)).toBe(true);
      expect(mayReadJob(staff('RAM', 1), requester)).toBe(false);
      expect(mayReadJob({ kind: 'staff', role: 'RAM', actor: { actorType: 'staff', actorId: null } }, requester)).toBe(
        false,
      );
    }
  });

  it('an Admin role on a session that is not staff is not Admin', () => {
    const notStaff = { kind: 'maketoken', role: 'Admin', actor: { actorType: 'distributor', actorId: 'agent:3' } };
    expect(mayReadJob(notStaff, { actorType: 'staff', actorId: 1 })).toBe(false);
    expect(mayReadJob(notStaff, { actorType: 'distributor', actorId: 'agent:3' })).toBe(true);
  });
});
