#!/usr/bin/env node
import { startAgentProgram } from 'dsh-agent/command-line';
import { acpAgentProgram } from './server/acp-agent-program.js';
import { routeConsoleToStderr } from './stdio/route-console-to-stderr.js';
import { createStderrLog } from './stdio/stderr-log.js';

// While serving, stdout carries the protocol and nothing else, whatever any code logs.
routeConsoleToStderr();

// An editor may stop reading stderr; the sessions on stdin and stdout must go on regardless.
const log = createStderrLog('dsh-acp: ');

startAgentProgram(acpAgentProgram({ log }));
