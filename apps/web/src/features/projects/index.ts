// What other features may use of projects: the query keys of the project lists (to read or refresh them), a
// project's read, and the projects a picker offers.

export { projectQuery } from "./api/get-project";
export { PROJECT_OPTIONS, useProjectOptions } from "./api/get-project-options";
export { projectKeys } from "./api/keys";
