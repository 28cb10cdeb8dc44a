/** What Loom offers other projects' test suites: `import { startLoom } from 'loom/testing'`. */
export { startLoom, type RunningLoom, type StartLoomOptions, type TestUser, type TestUserOptions } from './start-loom.js';
export { ControlClient, type ClockState, type JournalItem } from '../control/control-client.js';
