// The one rule for durations lives in the contract (`dsh-user-interaction/text`), so that a UI
// (the ACP question provider) writes them without loading the agent loop.
export { formatDuration } from 'dsh-user-interaction/text';
