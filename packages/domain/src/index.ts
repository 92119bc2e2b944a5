export * from "./calculator";
export * from "./constants";
export * from "./dto";
export * from "./format";
export * from "./rules";
export * from "./schemas";
export * from "./security";
export * from "./webhooks";
