export { memoRoutes, MEMO_DECIDE_GUARD, MEMO_REQUEST_GUARD } from './memos.routes';
export { memoDecisionWork, memoRefundAnswered, runDecision } from './memos.service';
export { writeOffDecisionWork } from './writeoffs.service';
