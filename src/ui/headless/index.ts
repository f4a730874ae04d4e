export { JsonEventWriter, jsonFormatVersion } from "./json-events.js";
export { JsonEventReader, JsonEventFormatError, readJsonEvents, type JsonMessage } from "./json-events-reader.js";
export { HeadlessHost, type HeadlessHostOptions } from "./headless-host.js";
export { HeadlessAskError, type UnansweredReason } from "./errors.js";
export { automaticAnswer, noAnswerAvailable } from "./policy.js";
