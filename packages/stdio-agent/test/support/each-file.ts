// Around every test file of this package (vitest.workspace.ts): the agents, fake terminals and
// pipes a test started are ended after it, and each file finds the bins' state folder empty.
import { afterAll, afterEach } from 'vitest';
import { stopAgents } from './agent-harness.js';
import { emptyBinStateHome } from './bin-process.js';
import { disposeOpened as disposePipes } from './line-mode-pipes.js';
import { disposeOpened as disposeTerminal } from './menu-terminal.js';

// A file that must end its agents otherwise (under fake timers) calls `stopAgents` itself
// first, and this finds none left.
afterEach(stopAgents);
afterEach(disposeTerminal);
afterEach(disposePipes);
afterAll(emptyBinStateHome);
