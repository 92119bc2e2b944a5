// The public routes, shared by the browser tests and the server's prerendering tests.

/** Every public route (docs/domain.md "Routes and navigation") and the h1 it must show. */
export const PUBLIC_PAGES = [
  ["/", "Release capital only when milestones are independently verified"],
  ["/features", "Independent checks before every release of capital"],
  ["/pricing", "Priced per platform, not per dollar released"],
  ["/about", "We make capital wait for proof"],
  ["/partners", "The network that turns a verified milestone into a release"],
  ["/contact", "See Tranche with your own project structure"],
  ["/demo", "Follow one milestone from evidence to release"],
  ["/enterprise", "Milestone governance at institutional scale"],
  ["/institutional-partners", "Oversight that limited partners can act on"],
  ["/verifier-app", "Verify milestones where the work happens"],
  ["/case-studies", "Milestone-verified capital in practice"],
  ["/become-verifier", "Independent judgement, paid for and on the record"],
  ["/gold-backed-protection", "Protect capital while it waits for its milestone"],
  ["/ai-verification", "Automatic evidence checks, measured"],
  ["/privacy", "Privacy notice"],
  ["/terms", "Terms of service"],
  ["/roadmap", "What we have built, and what comes next"],
  ["/verify", "Check a release certificate"],
  [
    "/verify/5f0c2a0e-8d1b-4c1e-9a55-0b7d2e4f6a11",
    "Milestones in Tranche are verified independently before capital moves",
  ],
] as const;
