import { removeTemporaryStateFolders } from 'dsh-agent/testing';
import { afterEach, beforeAll } from 'vitest';
import { assertBuilt } from './bin-process.js';
import { stopPtySessions } from './pty-session.js';

/**
 * The hooks of a test file that runs the built bin in real terminals, with state folders of its
 * own: the bin must be built before the first test, and after each test its terminals are
 * stopped and its temporary state folders removed.
 */
export function setUpBinTerminalTests(): void {
  beforeAll(assertBuilt);
  afterEach(() => {
    stopPtySessions();
    removeTemporaryStateFolders();
  });
}
