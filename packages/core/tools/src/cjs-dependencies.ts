// The two CommonJS dependencies, loaded at their first use: importing CommonJS from an ES
// module costs Node a parse of the whole source for its export names, which every program
// that imports dsh-tools would pay at its start whether it ever matches a glob or not.
import { createRequire } from 'node:module';
import type ignoreFactory from 'ignore';
import type picomatchFunction from 'picomatch';

const require = createRequire(import.meta.url);
let picomatch: typeof picomatchFunction | undefined;
let ignore: typeof ignoreFactory | undefined;

/** `picomatch`, loaded the first time a glob is compiled. */
export function loadPicomatch(): typeof picomatchFunction {
  picomatch ??= require('picomatch') as typeof picomatchFunction;
  return picomatch;
}

/** `ignore` (the `.gitignore` matcher), loaded the first time a folder is walked. */
export function loadIgnore(): typeof ignoreFactory {
  ignore ??= require('ignore') as typeof ignoreFactory;
  return ignore;
}
