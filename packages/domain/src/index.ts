export * from "./calculator";
export * from "./constants";
export * from "./dto";
export * from "./format";
export * from "./release-policy";
export * from "./rules";
export * from "./schemas";
export * from "./webhooks";
