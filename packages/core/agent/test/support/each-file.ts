// Around every test file of this package (vitest.workspace.ts): the state folders its tests made
// are removed after each test.
import { afterEach } from 'vitest';
import { removeTemporaryStateFolders } from '../../src/testing.js';

afterEach(removeTemporaryStateFolders);
