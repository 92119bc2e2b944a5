import { describe, expect, it } from "vitest";
import {
  checkpointQuerySchema,
  createMilestoneSchema,
  createProjectSchema,
  fieldErrors,
  milestoneExportQuerySchema,
  milestoneFormSchema,
  projectExportQuerySchema,
  releaseExportQuerySchema,
  releasePolicySchema,
  updateProjectSchema,
} from "../src/index";

const messages = (schema: { safeParse: (v: unknown) => any }, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error);
};

describe("milestone form messages, word for word", () => {
  const good = {
    title: "Foundations",
    description: "Concrete foundations.",
    dueDate: "2030-01-01",
    capitalAmount: 1,
    status: "pending",
  };

  it("accepts the minimums", () => {
    expect(messages(milestoneFormSchema, good)).toEqual({});
    expect(messages(milestoneFormSchema, { ...good, title: "ab", description: "0123456789" })).toEqual({});
  });

  it("gives each field its message", () => {
    expect(
      messages(milestoneFormSchema, { title: "a", description: "short", dueDate: "", capitalAmount: 0, status: "" }),
    ).toEqual({
      title: "Title must be at least 2 characters.",
      description: "Description must be at least 10 characters.",
      dueDate: "Due date is required.",
      capitalAmount: "Capital amount must be greater than zero.",
      status: "Status is required.",
    });
  });

  it("trims before measuring and refuses a status on create", () => {
    const { status: _status, ...create } = good;
    expect(messages(createMilestoneSchema, { ...create, title: "  a  " })).toEqual({
      title: "Title must be at least 2 characters.",
    });
    expect(messages(createMilestoneSchema, good)).toEqual({ status: "Unknown field." });
  });
});

describe("new project messages", () => {
  const good = { name: "Wind", description: "Offshore wind.", totalCapital: 10, location: "Oslo" };

  it("defaults the currency to USD", () => {
    const parsed = createProjectSchema.parse(good);
    expect(parsed.currency).toBe("USD");
  });

  it("treats a total capital of 0 as missing and names every required field", () => {
    expect(messages(createProjectSchema, { name: "", description: "", totalCapital: 0, location: "" })).toEqual({
      name: "Name is required.",
      description: "Description is required.",
      totalCapital: "Total capital must be greater than zero.",
      location: "Location is required.",
    });
  });

  it("caps total capital at 100 billion", () => {
    expect(createProjectSchema.safeParse({ ...good, totalCapital: 100_000_000_000 }).success).toBe(true);
    expect(messages(createProjectSchema, { ...good, totalCapital: 1e15 })).toEqual({
      totalCapital: "Total capital must be at most 100,000,000,000.",
    });
  });

  it("refuses an end date before the start date", () => {
    expect(messages(createProjectSchema, { ...good, startDate: "2025-02-01", endDate: "2025-01-31" })).toEqual({
      endDate: "End date must be on or after the start date.",
    });
  });
});

describe("money fields are exact to the cent", () => {
  it("refuses a third decimal instead of rounding it away", () => {
    const milestone = {
      title: "Foundations",
      description: "Concrete foundations.",
      dueDate: "2030-01-01",
      capitalAmount: 12.345,
    };
    expect(messages(createMilestoneSchema, milestone)).toEqual({
      capitalAmount: "Capital amount may have at most two decimals.",
    });
    expect(messages(createMilestoneSchema, { ...milestone, capitalAmount: 12.35 })).toEqual({});
    const project = { name: "P", description: "D", location: "L", totalCapital: 1000.001 };
    expect(messages(createProjectSchema, project)).toMatchObject({
      totalCapital: "Total capital may have at most two decimals.",
    });
    expect(messages(createProjectSchema, { ...project, totalCapital: 0.1 + 0.2 })).toEqual({});
  });
});

describe("money fields give the message of the rule an input breaks", () => {
  const milestone = { title: "Foundations", description: "Concrete foundations.", dueDate: "2030-01-01" };
  const capitalAmount = (value: unknown) =>
    messages(createMilestoneSchema, { ...milestone, capitalAmount: value }).capitalAmount;

  it.each([
    [0, "Capital amount must be greater than zero."],
    [-5, "Capital amount must be greater than zero."],
    [0.5, "Capital amount must be at least 1."],
    [0.999, "Capital amount must be at least 1."],
    ["100", "Capital amount must be a number."],
    ["abc", "Capital amount must be a number."],
    [null, "Capital amount must be a number."],
    [undefined, "Capital amount is required."],
    [1e308, "Capital amount must be at most 100,000,000,000."],
    // JSON.parse("1e309") is Infinity.
    [Number.POSITIVE_INFINITY, "Capital amount must be at most 100,000,000,000."],
    [100_000_000_000.01, "Capital amount must be at most 100,000,000,000."],
    [12.345, "Capital amount may have at most two decimals."],
    [1, undefined],
    [100_000_000_000, undefined],
  ])("capitalAmount %s → %s", (value, message) => {
    expect(capitalAmount(value)).toBe(message);
  });

  it("applies the same rules, each with its own minimum, to a project's total and a release policy's amounts", () => {
    const project = { name: "P", description: "D", location: "L" };
    const totalCapital = (value: unknown) =>
      messages(createProjectSchema, { ...project, totalCapital: value }).totalCapital;
    expect(totalCapital(0)).toBe("Total capital must be greater than zero.");
    expect(totalCapital(0.001)).toBe("Total capital must be at least 0.01.");
    expect(totalCapital(0.01)).toBeUndefined();
    expect(totalCapital("lots")).toBe("Total capital must be a number.");
    expect(totalCapital(1e308)).toBe("Total capital must be at most 100,000,000,000.");

    const rule = { requiredApprovals: 1, distinctOrganizations: false };
    const policy = (cosignAbove: unknown, minAmount: unknown = 5000) =>
      messages(releasePolicySchema, { ...rule, thresholds: [{ minAmount, approvals: 2 }], cosignAbove });
    expect(policy(0.5)).toEqual({ cosignAbove: "Countersign amount must be at least 1." });
    expect(policy("100")).toEqual({ cosignAbove: "Countersign amount must be a number." });
    expect(policy(1e308)).toEqual({ cosignAbove: "Countersign amount must be at most 100,000,000,000." });
    expect(policy(-1)).toEqual({ cosignAbove: "Countersign amount must be greater than zero." });
    expect(policy(null, 1e308)).toEqual({
      "thresholds.0.minAmount": "Threshold amount must be at most 100,000,000,000.",
    });
    expect(policy(null)).toEqual({});
  });
});

describe("fieldErrors", () => {
  it("names an unknown field called like an Object.prototype property, and serialises it", () => {
    for (const name of ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"]) {
      const details = messages(updateProjectSchema, JSON.parse(`{"${name}":1,"name":""}`));
      expect(Object.entries(details), name).toEqual([
        ["name", "Name is required."],
        [name, "Unknown field."],
      ]);
      expect(JSON.parse(JSON.stringify(details)), name).toHaveProperty([name], "Unknown field.");
      expect(Object.getPrototypeOf(details), name).toBe(Object.prototype);
    }
  });
});

describe("the audit checkpoints' limit", () => {
  it.each([
    ["-1", "Limit must be between 1 and 100."],
    ["0", "Limit must be between 1 and 100."],
    ["101", "Limit must be between 1 and 100."],
    ["1.5", "Limit must be a whole number."],
    ["ten", "Limit must be a number."],
    // Numbers nobody writes in a page size, which a coercion would read: 16, 100, 5.
    ["0x10", "Limit must be a number."],
    ["1e2", "Limit must be a number."],
    [" 5", "Limit must be a number."],
  ])("refuses %s with the lists' message", (limit, message) => {
    expect(messages(checkpointQuerySchema, { limit })).toEqual({ limit: message });
  });

  it("defaults to a page of 25 and reads 1 to 100", () => {
    expect(checkpointQuerySchema.parse({})).toEqual({ limit: 25 });
    expect(checkpointQuerySchema.parse({ limit: "100", before: "7" })).toEqual({ limit: 100, before: 7 });
    expect(messages(checkpointQuerySchema, { before: "0" })).toEqual({ before: "before must be a checkpoint id." });
    expect(messages(checkpointQuerySchema, { before: "0x10" })).toEqual({ before: "before must be a checkpoint id." });
  });
});

describe("the CSV exports' queries", () => {
  it("take the lists' filters and sort but no page: an export is the whole filtered set, in the list's order", () => {
    for (const schema of [projectExportQuerySchema, milestoneExportQuerySchema, releaseExportQuerySchema]) {
      expect(messages(schema, { cursor: "abc", limit: "5" })).toEqual({
        cursor: "Unknown field.",
        limit: "Unknown field.",
      });
    }
    expect(Object.keys(projectExportQuerySchema.shape)).toEqual(["status", "q", "sort"]);
    expect(Object.keys(milestoneExportQuerySchema.shape)).toEqual([
      "status",
      "mine",
      "assigned",
      "dueBefore",
      "projectId",
      "q",
      "sort",
    ]);
    // A project's releases have no sort of their own: newest first.
    expect(Object.keys(releaseExportQuerySchema.shape)).toEqual(["status", "projectId"]);
  });
});
