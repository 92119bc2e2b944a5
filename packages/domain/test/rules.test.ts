import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canTransition,
  capitalOverrun,
  deriveProjectStatus,
  isMilestoneEditable,
  MILESTONE_STATUSES,
  type MilestoneStatus,
  milestoneShare,
  ownerSelectableStatuses,
  progressPercent,
  remainingCapital,
  verificationProgress,
} from "../src/index";

const cents = fc.integer({ min: 1, max: 10_000_000_000 }).map((c) => c / 100);

describe("progressPercent", () => {
  it("rounds disbursed / total × 100 and is 0 without a total or a disbursement", () => {
    expect(progressPercent(3_000_000, 12_000_000)).toBe(25);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(67);
    expect(progressPercent(0, 100)).toBe(0);
    expect(progressPercent(null, 100)).toBe(0);
    expect(progressPercent(50, 0)).toBe(0);
    expect(progressPercent(100, 100)).toBe(100);
  });

  it("stays within 0..100 whenever disbursed ≤ total", () => {
    fc.assert(
      fc.property(cents, cents, (a, b) => {
        const [disbursed, total] = a <= b ? [a, b] : [b, a];
        const pct = progressPercent(disbursed, total);
        return pct >= 0 && pct <= 100;
      }),
    );
  });
});

describe("milestoneShare", () => {
  it("rounds amount / total × 100", () => {
    expect(milestoneShare(3_500_000, 12_000_000)).toBe(29);
    expect(milestoneShare(750_000, 5_000_000)).toBe(15);
    expect(milestoneShare(5, 0)).toBe(0);
  });
});

describe("capitalOverrun (the capital rule)", () => {
  it("names the exact overrun in cents", () => {
    expect(capitalOverrun(1_000_000, [600_000, 650_000])).toBe(250_000);
    expect(capitalOverrun(1_000_000, [600_000, 400_000])).toBe(0);
    expect(capitalOverrun(0.3, [0.1, 0.2])).toBe(0);
    expect(capitalOverrun(100_000, [100_000.5])).toBe(0.5);
  });

  it("is zero exactly when the amounts fit, and otherwise sum − total", () => {
    fc.assert(
      fc.property(cents, fc.array(cents, { maxLength: 12 }), (total, amounts) => {
        const sumCents = amounts.reduce((s, a) => s + Math.round(a * 100), 0);
        const totalCents = Math.round(total * 100);
        const over = capitalOverrun(total, amounts);
        if (sumCents <= totalCents) return over === 0;
        return Math.round(over * 100) === sumCents - totalCents;
      }),
    );
  });

  it("does not depend on the order of the milestones", () => {
    fc.assert(
      fc.property(cents, fc.array(cents, { maxLength: 8 }), (total, amounts) => {
        return capitalOverrun(total, amounts) === capitalOverrun(total, [...amounts].reverse());
      }),
    );
  });

  it("never grows when a milestone is removed", () => {
    fc.assert(
      fc.property(cents, fc.array(cents, { minLength: 1, maxLength: 8 }), (total, amounts) => {
        return capitalOverrun(total, amounts.slice(1)) <= capitalOverrun(total, amounts);
      }),
    );
  });

  it("keeps remaining = total − disbursed to the cent", () => {
    fc.assert(
      fc.property(cents, cents, (total, disbursed) => {
        const remaining = remainingCapital(total, disbursed);
        return Math.round(remaining * 100) === Math.round(total * 100) - Math.round(disbursed * 100);
      }),
    );
    expect(remainingCapital(0.3, 0.1)).toBe(0.2);
  });
});

describe("deriveProjectStatus", () => {
  const today = "2025-06-15";
  const m = (status: MilestoneStatus, dueDate = "2025-07-01") => ({ status, dueDate });

  it("follows the four rules in order", () => {
    expect(deriveProjectStatus({ totalCapital: 100, disbursedCapital: 100, milestones: [m("delayed")], today })).toBe(
      "funded",
    );
    expect(deriveProjectStatus({ totalCapital: 100, disbursedCapital: 0, milestones: [m("rejected")], today })).toBe(
      "at_risk",
    );
    expect(
      deriveProjectStatus({ totalCapital: 100, disbursedCapital: 0, milestones: [m("pending", "2025-06-14")], today }),
    ).toBe("at_risk");
    expect(
      deriveProjectStatus({
        totalCapital: 100,
        disbursedCapital: 40,
        milestones: [m("verified", "2025-01-01"), m("pending")],
        today,
      }),
    ).toBe("verified");
    expect(deriveProjectStatus({ totalCapital: 100, disbursedCapital: 0, milestones: [m("pending")], today })).toBe(
      "pending_verification",
    );
    expect(deriveProjectStatus({ totalCapital: 100, disbursedCapital: 0, milestones: [], today })).toBe(
      "pending_verification",
    );
  });

  it("a milestone due today is not yet late", () => {
    expect(
      deriveProjectStatus({ totalCapital: 100, disbursedCapital: 0, milestones: [m("pending", today)], today }),
    ).toBe("pending_verification");
  });

  it("is at_risk whenever any milestone is rejected or delayed and nothing is fully funded", () => {
    const status = fc.constantFrom(...MILESTONE_STATUSES);
    fc.assert(
      fc.property(fc.array(status, { minLength: 1, maxLength: 8 }), (statuses) => {
        const derived = deriveProjectStatus({
          totalCapital: 100,
          disbursedCapital: 0,
          milestones: statuses.map((s) => m(s)),
          today,
        });
        const risky = statuses.some((s) => s === "rejected" || s === "delayed");
        return risky ? derived === "at_risk" : derived !== "at_risk";
      }),
    );
  });
});

describe("the milestone state machine", () => {
  it("lets owners set only pending/delayed moves and never verified or rejected", () => {
    for (const from of MILESTONE_STATUSES) {
      expect(canTransition(from, "verified", "owner")).toBe(false);
      expect(canTransition(from, "rejected", "owner")).toBe(false);
      expect(canTransition(from, "in_verification", "owner")).toBe(false);
    }
    expect(ownerSelectableStatuses("pending")).toEqual(["pending", "delayed"]);
    expect(ownerSelectableStatuses("rejected")).toEqual(["rejected", "pending", "delayed"]);
    expect(ownerSelectableStatuses("delayed")).toEqual(["delayed", "pending"]);
    expect(canTransition("in_verification", "verified", "verifier")).toBe(true);
    expect(canTransition("verified", "rejected", "verifier")).toBe(false);
  });

  it("locks verified and in_verification milestones", () => {
    expect(MILESTONE_STATUSES.filter((s) => !isMilestoneEditable(s))).toEqual(["in_verification", "verified"]);
  });

  it("reports verification progress: 0 pending, 25 + 75 × checked share, 100 decided", () => {
    expect(verificationProgress("pending", null)).toBe(0);
    expect(verificationProgress("in_verification", {})).toBe(25);
    expect(verificationProgress("in_verification", { documentation: true, compliance: true, quality: true })).toBe(63);
    expect(verificationProgress("verified", null)).toBe(100);
    expect(verificationProgress("rejected", null)).toBe(100);
  });
});
