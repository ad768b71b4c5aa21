/** What a part of the program does when the process is suspended (Ctrl+Z, `kill -TSTP`) and resumed. */
export interface SuspendParticipant {
  /** Gives the terminal back before the process stops: raw mode off, cursor shown. Must not throw. */
  suspend(): void;
  /** Takes the terminal again after `fg` (SIGCONT): raw mode on, and a redraw. Must not throw. */
  resume(): void;
}

interface SuspendState {
  readonly participants: SuspendParticipant[];
  waitingForContinue: boolean;
  readonly onStop: () => void;
}

// One registry per process, even with two copies of this package loaded: two SIGTSTP
// listeners would each take the other for a host that handles the signal.
const REGISTRY = Symbol.for('dsh-stdio-agent.suspend');
const registry = globalThis as Record<symbol, SuspendState | undefined>;
const state: SuspendState = registry[REGISTRY] ?? {
  participants: [],
  waitingForContinue: false,
  onStop,
};
registry[REGISTRY] = state;
const { participants } = state;

function each(
  list: readonly SuspendParticipant[],
  step: (participant: SuspendParticipant) => void,
): void {
  for (const participant of list) {
    try {
      step(participant);
    } catch {
      // One part that cannot restore must not keep the others from it.
    }
  }
}

function onContinue(): void {
  state.waitingForContinue = false;
  if (participants.length > 0) process.on('SIGTSTP', state.onStop);
  // Outermost first: the prompt's raw mode, then the question's redraw above it.
  each(participants, (participant) => participant.resume());
}

function onStop(): void {
  stop(process.pid);
}

/**
 * Gives the terminal back, then sends SIGTSTP to `target`: this process (a stop signal came),
 * or its process group (Ctrl+Z read as a key).
 */
function stop(target: number): void {
  // A host with its own SIGTSTP listener decides what a stop means, as with SIGINT.
  if (process.listenerCount('SIGTSTP') > 1 || state.waitingForContinue) return;
  // Innermost first: the question leaves the screen before the prompt does.
  each([...participants].reverse(), (participant) => participant.suspend());
  state.waitingForContinue = true;
  process.once('SIGCONT', onContinue);
  // Without a listener the signal has its default action again: the process stops here, as
  // any program does, and the shell can take the terminal.
  process.removeListener('SIGTSTP', state.onStop);
  process.kill(target, 'SIGTSTP');
}

/**
 * Takes part in suspending the process (SIGTSTP) and resuming it (SIGCONT), as shells and
 * editors do: while at least one part takes part, the process gives the terminal back before
 * it stops, and takes it again when it continues. Returns the function that leaves.
 */
export function onSuspend(participant: SuspendParticipant): () => void {
  if (process.platform === 'win32') return () => {};
  participants.push(participant);
  if (participants.length === 1 && !state.waitingForContinue) process.on('SIGTSTP', state.onStop);
  let left = false;
  return () => {
    if (left) return;
    left = true;
    const index = participants.indexOf(participant);
    if (index >= 0) participants.splice(index, 1);
    if (participants.length === 0) process.removeListener('SIGTSTP', state.onStop);
  };
}

/**
 * Ctrl+Z pressed as a key in raw mode: the whole process group stops, as the terminal stops it
 * for a Ctrl+Z in cooked mode. Stopping only this process would leave a parent of the same job
 * (`pnpm start`: pnpm and scripts/start.mjs) running in the foreground, the shell waiting on it,
 * and the terminal frozen. The terminal is given back before anything stops.
 */
export function suspendByKey(): void {
  if (process.platform === 'win32') return;
  const listening = process.listeners('SIGTSTP').includes(state.onStop);
  // A host's own listener decides, as for a `kill -TSTP`.
  if (process.listenerCount('SIGTSTP') > (listening ? 1 : 0)) process.kill(process.pid, 'SIGTSTP');
  else if (listening) stop(0);
  else process.kill(0, 'SIGTSTP');
}
