// What other features may use of auth: who is signed in.
export { useSession } from "./api/session";
