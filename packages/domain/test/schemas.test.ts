import { describe, expect, it } from "vitest";
import { createMilestoneSchema, createProjectSchema, fieldErrors, milestoneFormSchema } from "../src/index";

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
