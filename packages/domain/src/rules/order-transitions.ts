import type { Permission } from '../access/permissions';
import { ROLE, type Role } from '../access/roles';
import { ORDER_STATUS, ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';

/**
 * The order status machine (spec §4 lists the codes; the transitions are our design, decision 071).
 *
 * Each move names who may make it: a session passes when its role is Admin, or its role is in `roles`, or it
 * holds any privilege in `privileges` (an additional privilege can grant a move without changing the role).
 *
 *   Draft 1 ──► Incomplete 2 ◄──► Pending Contract Sign 11 (the merchant signs from a link)
 *   11 ──► Petro Approval 101 / Pending NRS Pay Approval 111 / Pending AR Approval 121
 *   101, 111 ──► 121 AR ──► AR Contract Regenerated 125 (──► 11 re-sign, or 126) / AR Submitted 126
 *   126 ──► Submitted to Support 15 / Pending Onboarding 10 ──► Installation 140
 *   140 ──► POS Canceled 141 / POS Postponed 142 / Complete 150;  142 ──► 140 / 141;  141 ──► 140
 *   any open status before installation ──► Rejected 3 (with a reason) ──► Incomplete 2 (reopened for fixing)
 *   Complete 150 is final: no move out of it.
 */
export interface TransitionActor {
  /** Roles whose queue this move belongs to (Admin may always). */
  roles: readonly Role[];
  /** Any one of these privileges also allows the move. */
  privileges: readonly Permission[];
}

/** Sales (the Draft queue): whoever creates orders. */
const SALES: TransitionActor = {
  roles: [ROLE.DISTRIBUTOR, ROLE.RAM, ROLE.IS, ROLE.RSS, ROLE.MSS, ROLE.RDC],
  privileges: ['create_distributor_orders'],
};
/** RAM Support works the Pending Contract Sign queue. */
const RAM_SUPPORT: TransitionActor = { roles: [ROLE.RAM_SUPPORT], privileges: [] };
/** The Pending AR Approval queue (also Petro approvals and the support hand-over). */
const AR: TransitionActor = {
  roles: [ROLE.AR_TEAM, ROLE.CUSTOMER_SERVICE, ROLE.CUSTOMER_SUPPORT, ROLE.CUSTOMER_CARE],
  privileges: ['ar_approvals'],
};
const NRS_PAY: TransitionActor = { roles: [ROLE.NRS_PAY_SUPPORT], privileges: [] };
const OPERATIONS: TransitionActor = { roles: [ROLE.OPERATIONS], privileges: [] };
/** The support teams that pick up a submitted order (15) or a finished onboarding (10). */
const SUPPORT: TransitionActor = {
  roles: [ROLE.CUSTOMER_SERVICE, ROLE.CUSTOMER_SUPPORT, ROLE.CUSTOMER_CARE, ROLE.NRS_PAY_SUPPORT, ROLE.OPERATIONS],
  privileges: [],
};

const S = ORDER_STATUS;

/** from → (to → who may make the move). A pair absent here is forbidden. */
export const ORDER_TRANSITIONS: Readonly<
  Record<OrderStatusCode, Readonly<Partial<Record<OrderStatusCode, TransitionActor>>>>
> = {
  [S.DRAFT]: { [S.INCOMPLETE]: SALES, [S.PENDING_CONTRACT_SIGN]: SALES },
  [S.INCOMPLETE]: { [S.DRAFT]: SALES, [S.PENDING_CONTRACT_SIGN]: SALES },
  [S.REJECTED]: { [S.INCOMPLETE]: SALES },
  [S.PENDING_CONTRACT_SIGN]: {
    [S.INCOMPLETE]: RAM_SUPPORT,
    [S.PETRO_APPROVAL]: RAM_SUPPORT,
    [S.PENDING_NRS_PAY_APPROVAL]: RAM_SUPPORT,
    [S.PENDING_AR_APPROVAL]: RAM_SUPPORT,
    [S.REJECTED]: RAM_SUPPORT,
  },
  [S.PETRO_APPROVAL]: { [S.PENDING_AR_APPROVAL]: AR, [S.INCOMPLETE]: AR, [S.REJECTED]: AR },
  [S.PENDING_NRS_PAY_APPROVAL]: { [S.PENDING_AR_APPROVAL]: NRS_PAY, [S.INCOMPLETE]: NRS_PAY, [S.REJECTED]: NRS_PAY },
  [S.PENDING_AR_APPROVAL]: {
    [S.AR_CONTRACT_REGENERATED]: AR,
    [S.AR_SUBMITTED]: AR,
    [S.INCOMPLETE]: AR,
    [S.REJECTED]: AR,
  },
  [S.AR_CONTRACT_REGENERATED]: { [S.PENDING_CONTRACT_SIGN]: AR, [S.AR_SUBMITTED]: AR, [S.REJECTED]: AR },
  [S.AR_SUBMITTED]: { [S.SUBMITTED_TO_SUPPORT]: AR, [S.PENDING_ONBOARDING]: AR, [S.REJECTED]: AR },
  [S.SUBMITTED_TO_SUPPORT]: { [S.PENDING_ONBOARDING]: SUPPORT, [S.INSTALLATION]: SUPPORT, [S.REJECTED]: SUPPORT },
  [S.PENDING_ONBOARDING]: { [S.SUBMITTED_TO_SUPPORT]: SUPPORT, [S.INSTALLATION]: SUPPORT, [S.REJECTED]: SUPPORT },
  [S.INSTALLATION]: { [S.POS_CANCELED]: OPERATIONS, [S.POS_POSTPONED]: OPERATIONS, [S.COMPLETE]: OPERATIONS },
  [S.POS_CANCELED]: { [S.INSTALLATION]: OPERATIONS },
  [S.POS_POSTPONED]: { [S.INSTALLATION]: OPERATIONS, [S.POS_CANCELED]: OPERATIONS },
  [S.COMPLETE]: {},
};

/** Statuses a change into needs a status reason (and writes a status_reason note). */
export const STATUSES_REQUIRING_REASON: readonly OrderStatusCode[] = [S.REJECTED, S.POS_CANCELED, S.POS_POSTPONED];

/** Who is asking: a role name and the session's effective privileges. */
export interface TransitionRequester {
  role: string;
  privileges: readonly string[];
}

/** Whether the table has the move (regardless of who asks). */
export function canTransition(from: OrderStatusCode, to: OrderStatusCode): boolean {
  return ORDER_TRANSITIONS[from]?.[to] !== undefined;
}

/** Who may make the move, or undefined when the table does not have it. */
export function transitionActor(from: OrderStatusCode, to: OrderStatusCode): TransitionActor | undefined {
  return ORDER_TRANSITIONS[from]?.[to];
}

/** Whether `who` may make the move from → to (false when the table does not have it). */
export function mayTransition(from: OrderStatusCode, to: OrderStatusCode, who: TransitionRequester): boolean {
  const actor = transitionActor(from, to);
  if (!actor) return false;
  if (who.role === ROLE.ADMIN) return true;
  if ((actor.roles as readonly string[]).includes(who.role)) return true;
  return actor.privileges.some((p) => who.privileges.includes(p));
}

/** The statuses `who` may move an order in `from` to, in workflow order. */
export function allowedNextStatuses(from: OrderStatusCode, who: TransitionRequester): OrderStatusCode[] {
  return ORDER_STATUS_CODES.filter((to) => mayTransition(from, to, who));
}

export function transitionRequiresReason(to: OrderStatusCode): boolean {
  return STATUSES_REQUIRING_REASON.includes(to);
}

/** A sentence naming who may make the move (for 403 messages), or that the move does not exist. */
export function describeTransitionRule(from: OrderStatusCode, to: OrderStatusCode): string {
  const actor = transitionActor(from, to);
  if (!actor) return `An order cannot move from status ${from} to ${to}.`;
  const who = [ROLE.ADMIN, ...actor.roles].join(', ');
  const privs = actor.privileges.length ? ` or the privilege ${actor.privileges.join(' or ')}` : '';
  return `Moving an order from status ${from} to ${to} needs the role ${who}${privs}.`;
}

/**
 * Who works an order in `from` (issue 30: a locked status names the queue that can move it): the roles of every move
 * out of it, with Admin; "final" for Complete. E.g. 'NRS Pay Support (or an Admin)'.
 */
export function statusMoversText(from: OrderStatusCode): string | null {
  const actors = Object.values(ORDER_TRANSITIONS[from] ?? {}).filter((a): a is TransitionActor => a !== undefined);
  if (actors.length === 0) return null;
  const roles = [...new Set(actors.flatMap((a) => a.roles))];
  const privileges = [...new Set(actors.flatMap((a) => a.privileges))];
  const who = roles.length > 2 ? `${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}` : roles.join(' or ');
  const extra = privileges.length ? `, anyone with ${privileges.join(' or ')}` : '';
  return `${who}${extra} (or an Admin)`;
}
