// Around every test file of this package (vitest.workspace.ts): the agents a test started are
// ended after it, and each file finds the bins' state folder empty.
import { afterAll, afterEach } from 'vitest';
import { stopAgents } from './agent-harness.js';
import { emptyBinStateHome } from './bin-process.js';

// A file that must end its agents otherwise (under fake timers) calls `stopAgents` itself
// first, and this finds none left.
afterEach(stopAgents);
afterAll(emptyBinStateHome);
