import { describe, expect, it } from "vitest";
import { openSlot, writeSlot } from "../src/slots";

describe("save slots", () => {
  it("loads an empty slot", async () => {
    const slot = await openSlot(0);
    expect(slot.record).toBeNull();
  });

  it("writes then reads the same bytes", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    await writeSlot(1, bytes);
    expect((await openSlot(1)).bytes).toEqual(bytes);
  });
});
