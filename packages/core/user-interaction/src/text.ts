// `dsh-user-interaction/text`: how every UI and the agent write for people, one rule each.
export { formatDuration } from './text/format-duration.js';
export { type RouteConsoleOptions, routeConsole } from './text/route-console.js';
