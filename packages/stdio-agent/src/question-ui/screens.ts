// Every session but a single question in line mode, which is all a pipe usually needs: the
// provider imports this module at the first question that needs it (and an interactive provider
// at its creation), so that a piped question does not load and compile the menus.
export {
  startApprovalSession,
  startLineApprovalSession,
  viewOf,
} from './approval/approval-session.js';
export { startBatchSession } from './batch/batch-session.js';
export { startLineBatchSession } from './line-mode/line-batch-session.js';
export { startInteractiveSession } from './menu/interactive-session.js';
