export * from "./answers";
export * from "./common";
export * from "./field";
export * from "./people";
export * from "./projects";
export * from "./queries";
export * from "./records";
export * from "./verification";
