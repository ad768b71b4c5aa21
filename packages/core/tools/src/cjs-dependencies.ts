// The CommonJS dependency (picomatch, for the permission rules), loaded at its first use: importing CommonJS from an ES
// module costs Node a parse of the whole source for its export names, which every program
// that imports dsh-tools would pay at its start whether it ever matches a glob or not.
import { createRequire } from 'node:module';
import type picomatchFunction from 'picomatch';

const require = createRequire(import.meta.url);
let picomatch: typeof picomatchFunction | undefined;

/** `picomatch`, loaded the first time a glob is compiled. */
export function loadPicomatch(): typeof picomatchFunction {
  picomatch ??= require('picomatch') as typeof picomatchFunction;
  return picomatch;
}
