import { Link } from "react-router";
import { PageHero, Prose } from "@/features/marketing/components/page-parts";

export default function TermsPage() {
  return (
    <main id="main">
      <PageHero eyebrow="Legal" title="Terms of service" lead={<p>Last updated 1 March 2025.</p>} />
      <Prose>
        <p>
          These terms govern use of the Tranche website and platform. Clients with a signed agreement are covered by
          that agreement where it differs from these terms.
        </p>
        <h2>1. What Tranche is, and is not</h2>
        <p>
          Tranche is software for verifying project milestones and recording the verification. Tranche does not hold,
          manage, invest or transmit money, is not a custodian, escrow agent, bank or investment adviser, and does not
          give investment advice. Releases of capital are carried out by the custodian or escrow agent that the client
          appoints.
        </p>
        <h2>2. Accounts</h2>
        <p>
          You must give accurate information, keep your password to yourself and tell us promptly about any unauthorised
          use. Administrators are responsible for the roles they give to users in their organization.
        </p>
        <h2>3. Verifiers</h2>
        <p>
          Verifiers act independently of Tranche. A verifier's decision is theirs; Tranche records it and enforces the
          rules the client has set, including that no verifier checks a project they own or invest in.
        </p>
        <h2>4. Acceptable use</h2>
        <ul>
          <li>Upload only evidence you have the right to share.</li>
          <li>Do not try to alter records, bypass permissions or probe other clients' data.</li>
          <li>Do not send automated or bulk requests through our public forms.</li>
        </ul>
        <h2>5. Records and availability</h2>
        <p>
          We keep the audit record append-only and tamper-evident. We aim for high availability; service levels apply
          only where a signed agreement sets them.
        </p>
        <h2>6. Liability</h2>
        <p>
          To the extent the law allows, Tranche is not liable for investment outcomes or for decisions made by
          verifiers, custodians or clients. Nothing in these terms limits liability that cannot be limited by law.
        </p>
        <h2>7. Changes and contact</h2>
        <p>
          We will give 30 days' notice of material changes. Questions:{" "}
          <a href="mailto:legal@tranche.capital">legal@tranche.capital</a>. See also our{" "}
          <Link to="/privacy">privacy notice</Link>.
        </p>
      </Prose>
    </main>
  );
}
