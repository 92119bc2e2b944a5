export * from "./constants";
export * from "./format";
export * from "./rules";
export * from "./schemas";
export * from "./dto";
