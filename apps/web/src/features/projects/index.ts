// What other features may use of projects: the query keys of the project lists (to read or refresh them).
export { projectKeys } from "./api/keys";
