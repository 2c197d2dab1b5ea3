import { describe, expect, it } from 'vitest';
import { ROLES, ROLE_START_STATUS, effectivePrivileges, type Role } from '../access/roles';
import { ORDER_STATUS, ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';
import {
  statusMoversText,
  ORDER_TRANSITIONS,
  allowedNextStatuses,
  canTransition,
  describeTransitionRule,
  mayTransition,
  transitionRequiresReason,
} from './order-transitions';

/** The documented moves (decision 071), written out independently of the table: "from>to". */
const EXPECTED_MOVES = new Set([
  '1>2',
  '1>11',
  '2>1',
  '2>11',
  '3>2',
  '11>2',
  '11>101',
  '11>111',
  '11>121',
  '11>3',
  '101>121',
  '101>2',
  '101>3',
  '111>121',
  '111>2',
  '111>3',
  '121>125',
  '121>126',
  '121>2',
  '121>3',
  '125>11',
  '125>126',
  '125>3',
  '126>15',
  '126>10',
  '126>3',
  '15>10',
  '15>140',
  '15>3',
  '10>15',
  '10>140',
  '10>3',
  '140>141',
  '140>142',
  '140>150',
  '141>140',
  '142>140',
  '142>141',
]);

const pairs: Array<[OrderStatusCode, OrderStatusCode]> = ORDER_STATUS_CODES.flatMap((from) =>
  ORDER_STATUS_CODES.map((to) => [from, to] as [OrderStatusCode, OrderStatusCode]),
);

function who(role: Role) {
  return { role, privileges: effectivePrivileges(role) };
}

function reachableFrom(start: OrderStatusCode): Set<OrderStatusCode> {
  const seen = new Set<OrderStatusCode>([start]);
  const queue = [start];
  while (queue.length) {
    const from = queue.shift()!;
    for (const to of Object.keys(ORDER_TRANSITIONS[from]) as OrderStatusCode[]) {
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

describe('order status transitions', () => {
  it('has a row for every §4 status and only §4 codes as targets', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUS_CODES].sort());
    for (const from of ORDER_STATUS_CODES) {
      for (const to of Object.keys(ORDER_TRANSITIONS[from])) expect(ORDER_STATUS_CODES).toContain(to);
    }
  });

  it('property: over every pair of codes, canTransition holds iff the pair is a documented move', () => {
    expect(pairs).toHaveLength(15 * 15);
    for (const [from, to] of pairs)
      expect([from, to, canTransition(from, to)]).toEqual([from, to, EXPECTED_MOVES.has(`${from}>${to}`)]);
  });

  it('property: no status moves to itself', () => {
    for (const code of ORDER_STATUS_CODES) expect(canTransition(code, code)).toBe(false);
  });

  it('Complete 150 is final', () => {
    for (const to of ORDER_STATUS_CODES) expect(canTransition('150', to)).toBe(false);
    expect(allowedNextStatuses('150', who('Admin'))).toEqual([]);
  });

  it('every status is reachable from Draft, and Complete is', () => {
    const reach = reachableFrom('1');
    expect([...reach].sort()).toEqual([...ORDER_STATUS_CODES].sort());
    expect(reach.has('150')).toBe(true);
  });

  it('every status except Complete can still reach Complete (no dead ends)', () => {
    for (const code of ORDER_STATUS_CODES) expect([code, reachableFrom(code).has('150')]).toEqual([code, true]);
  });

  it('property: over every pair and role, mayTransition implies canTransition, and Admin may make every move', () => {
    for (const [from, to] of pairs) {
      for (const role of ROLES) if (mayTransition(from, to, who(role))) expect(canTransition(from, to)).toBe(true);
      expect(mayTransition(from, to, who('Admin'))).toBe(canTransition(from, to));
    }
  });

  it('every move has at least one non-Admin role that may make it', () => {
    for (const [from, to] of pairs.filter(([f, t]) => canTransition(f, t))) {
      expect([from, to, ROLES.some((r) => r !== 'Admin' && mayTransition(from, to, who(r)))]).toEqual([from, to, true]);
    }
  });

  it('each role can move orders out of the queue it starts from (except Marketing, whose queue is Complete)', () => {
    for (const role of ROLES.filter((r) => r !== 'Marketing')) {
      expect([role, allowedNextStatuses(ROLE_START_STATUS[role], who(role)).length > 0]).toEqual([role, true]);
    }
    expect(allowedNextStatuses('150', who('Marketing'))).toEqual([]);
  });

  it('approvals belong to the role whose queue it is', () => {
    expect(allowedNextStatuses('121', who('AR Team'))).toEqual(['2', '3', '125', '126']);
    expect(allowedNextStatuses('121', who('Customer Care'))).toEqual(['2', '3', '125', '126']);
    expect(allowedNextStatuses('121', who('NRS Pay Support'))).toEqual([]);
    expect(allowedNextStatuses('111', who('NRS Pay Support'))).toEqual(['2', '3', '121']);
    expect(allowedNextStatuses('111', who('AR Team'))).toEqual([]);
    expect(allowedNextStatuses('11', who('RAM Support'))).toEqual(['2', '3', '101', '111', '121']);
    expect(allowedNextStatuses('140', who('Operations'))).toEqual(['141', '142', '150']);
    expect(allowedNextStatuses('140', who('AR Team'))).toEqual([]);
    expect(allowedNextStatuses('1', who('Distributor'))).toEqual(['2', '11']);
    expect(allowedNextStatuses('1', who('Operations'))).toEqual([]);
  });

  it('an additional privilege grants the moves it names', () => {
    expect(mayTransition('121', '126', { role: 'Operations', privileges: ['ar_approvals'] })).toBe(true);
    expect(mayTransition('121', '126', { role: 'Operations', privileges: [] })).toBe(false);
    expect(mayTransition('1', '11', { role: 'Operations', privileges: ['create_distributor_orders'] })).toBe(true);
  });

  it('an unknown role with no privileges may make no move', () => {
    for (const [from, to] of pairs) expect(mayTransition(from, to, { role: 'Nobody', privileges: [] })).toBe(false);
  });

  it('a reason is required for Rejected 3, POS Canceled 141 and POS Postponed 142 only', () => {
    expect(ORDER_STATUS_CODES.filter(transitionRequiresReason)).toEqual(['3', '141', '142']);
  });

  it('describes the rule for 403 messages', () => {
    expect(describeTransitionRule('140', '150')).toBe(
      'Moving an order from status 140 to 150 needs the role Admin, Operations.',
    );
    expect(describeTransitionRule('121', '126')).toContain('or the privilege ar_approvals');
    expect(describeTransitionRule('150', '1')).toBe('An order cannot move from status 150 to 1.');
  });
});

describe('statusMoversText (issue 30)', () => {
  it('names the queue that moves an order on, and says when a status is final', () => {
    expect(statusMoversText(ORDER_STATUS.PENDING_NRS_PAY_APPROVAL)).toBe('NRS Pay Support (or an Admin)');
    expect(statusMoversText(ORDER_STATUS.INSTALLATION)).toBe('Operations (or an Admin)');
    expect(statusMoversText(ORDER_STATUS.COMPLETE)).toBeNull();
  });
});
