// Around every test file of this package (vitest.workspace.ts): each file finds the bins'
// state folder empty.
import { afterAll } from 'vitest';
import { emptyBinStateHome } from './bin-process.js';

afterAll(emptyBinStateHome);
