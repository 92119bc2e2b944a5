export * from "./calculator";
export * from "./constants";
export * from "./dto";
export * from "./format";
export * from "./people";
export * from "./rules";
export * from "./schemas";
export * from "./webhooks";
