// What other features may use of the account: the notice beside actions that ask for the second factor.
export { SecondFactorNotice } from "./components/second-factor-notice";
