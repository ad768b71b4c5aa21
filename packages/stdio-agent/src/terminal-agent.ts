export { NOTIFY_MODES, type NotifyMode } from './terminal-agent/notify/waiting-notifier.js';
export {
  FAILED_TURN_EXIT_CODE,
  INTERRUPTED_EXIT_CODE,
  type InterruptSource,
  runTerminalAgent,
  type TerminalAgentOptions,
} from './terminal-agent/terminal-agent.js';
