import { expect, test } from "vitest";
import { migrate } from "../src/migrate";

test("upgrades a v1 save to v2", () => {
  expect(migrate({ version: 1 }).version).toBe(2);
});

test("keeps the player's name", () => {
  expect(migrate({ version: 1, name: "Ada" }).name).toBe("Ada");
});
