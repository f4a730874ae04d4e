export { HeadlessHost, type HeadlessHostOptions } from "./headless-host.js";
export { HeadlessAskError, type UnansweredReason } from "./errors.js";
export { automaticAnswer, noAnswerAvailable } from "./policy.js";
