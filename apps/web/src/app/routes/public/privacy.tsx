import { Link } from "react-router";
import { PageHero, Prose } from "@/features/marketing/components/page-parts";

export default function PrivacyPage() {
  return (
    <main id="main">
      <PageHero eyebrow="Legal" title="Privacy notice" lead={<p>Last updated 1 March 2025.</p>} />
      <Prose>
        <p>
          This notice explains what personal data Tranche processes, why, and the choices you have. It covers our
          website, the forms on it and the Tranche platform.
        </p>
        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>Requests from our forms:</strong> the e-mail address, name, organization and message you send when
            you request a demo, early access to the verifier app, or verifier partnership, with the page you sent it
            from and your network address (kept to stop abuse).
          </li>
          <li>
            <strong>Platform accounts:</strong> name, e-mail, role and organization; a hash of your password (never the
            password itself); and the sessions you open.
          </li>
          <li>
            <strong>Platform records:</strong> the projects, milestones, evidence files, checklists and decisions that
            users create, and an audit record of who changed what and when.
          </li>
        </ul>
        <h2>Why we use it</h2>
        <p>
          We use form requests only to answer them. We use account and platform data to provide the service our clients
          contract for, to keep it secure, and to meet our legal obligations. We do not sell personal data or use it for
          advertising.
        </p>
        <h2>The audit record</h2>
        <p>
          The audit record is append-only by design: it is what lets our clients prove how capital was released. We
          therefore keep actions and identifiers in it for as long as the client's agreement requires, but we keep the
          personal details of form requests out of it.
        </p>
        <h2>Where it is kept</h2>
        <p>
          Data is stored in the region agreed with each client (the EU, the UK or Singapore). Evidence files stay in the
          same region as the records that refer to them.
        </p>
        <h2>How long we keep it</h2>
        <p>
          Form requests are deleted 24 months after our last contact with you. Platform data is kept for the term of the
          client's agreement and then returned or deleted as the agreement says.
        </p>
        <h2>Your rights</h2>
        <p>
          You can ask to see, correct or delete your personal data, or object to how we use it, by writing to{" "}
          <a href="mailto:privacy@tranche.capital">privacy@tranche.capital</a>. You can also complain to your data
          protection authority.
        </p>
        <p>
          See also our <Link to="/terms">terms of service</Link>.
        </p>
      </Prose>
    </main>
  );
}
