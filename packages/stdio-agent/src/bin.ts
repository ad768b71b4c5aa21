#!/usr/bin/env node
import { startAgentProgram } from 'dsh-agent/command-line';
import { inertText } from 'dsh-user-interaction/provider';
import { routeConsole } from 'dsh-user-interaction/text';
import { terminalAgentProgram } from './terminal-agent/terminal-agent-program.js';

// What a dependency prints through the console reaches the terminal inert, one line a call
// (a line break in a server's text cannot forge a line of ours): the MCP SDK names a
// server's tool and its bad `x-mcp-header`, control characters included, when it drops one.
routeConsole(process.stderr, (text) => inertText(text, 'terminal-line'));

startAgentProgram(terminalAgentProgram());
