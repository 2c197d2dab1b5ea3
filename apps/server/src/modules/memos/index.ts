export { memoRoutes, MEMO_DECIDE_GUARD, MEMO_REQUEST_GUARD } from './memos.routes';
export { memoDecisionWork, runDecision } from './memos.service';
export { writeOffDecisionWork } from './writeoffs.service';
