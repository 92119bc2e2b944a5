// PUT /api/me/avatar keeps only a picture that decodes: bytes that merely begin like a PNG, JPEG or WebP (the
// signature, then anything) are refused with 400 naming `avatar`, and the picture already kept stays.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVATAR_MAX_SIDE, AVATAR_TOO_MANY_PIXELS, AVATAR_UNREADABLE } from "../src/services/profile/profile";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  // Noise, so the compressed data spans many bytes and a cut lands inside it.
  const picture = () =>
    sharp({
      create: {
        width: 48,
        height: 48,
        channels: 3,
        background: "#000",
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    });
  [png, jpeg, webp] = await Promise.all([
    picture().png().toBuffer(),
    picture().jpeg().toBuffer(),
    picture().webp().toBuffer(),
  ]);
});
afterAll(() => t.close());

const put = (user: TestUser, bytes: Buffer, type = "image/png") =>
  t.app.request("/api/me/avatar", {
    method: "PUT",
    headers: { cookie: user.cookie, "content-type": type },
    body: new Uint8Array(bytes),
  });

async function refusal(res: Response) {
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: { code: string; message: string; details: unknown } }).error;
}

describe("PUT /api/me/avatar", () => {
  it.each([
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
  ] as const)("keeps a whole %s picture and serves it as %s", async (kind, type) => {
    const user = await t.user("investor");
    const bytes = { png, jpeg, webp }[kind];
    const res = await put(user, bytes, type);
    expect(res.status).toBe(200);
    const { avatar } = (await res.json()) as { avatar: string };
    const served = await t.app.request(avatar, { headers: { cookie: user.cookie } });
    expect(served.headers.get("content-type")).toBe(type);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("refuses bytes that only begin like an image, or stop short, and keeps the picture it had", async () => {
    const user = await t.user("investor");
    const kept = await put(user, png);
    expect(kept.status).toBe(200);
    const { avatar } = (await kept.json()) as { avatar: string };

    const junk = Buffer.from("junk junk junk junk junk junk junk junk");
    const riff = Buffer.from(webp.subarray(0, 12));
    riff.writeUInt32LE(4 + junk.length, 4); // a RIFF size that matches, around junk
    const broken = {
      "PNG signature then junk": Buffer.concat([png.subarray(0, 8), junk]),
      "PNG header only": png.subarray(0, 33),
      "PNG cut in its image data": png.subarray(0, png.length / 2),
      "JPEG start marker then junk": Buffer.concat([jpeg.subarray(0, 3), junk]),
      // Cut inside the scan: a file missing only its end marker may still hold every pixel, and is kept.
      "JPEG cut in its image data": jpeg.subarray(0, jpeg.length / 2),
      "WebP header then junk": Buffer.concat([riff, junk]),
      "WebP cut short": webp.subarray(0, webp.length - 10),
    };
    for (const [what, bytes] of Object.entries(broken)) {
      expect(await refusal(await put(user, bytes)), what).toEqual({
        code: "invalid_input",
        message: AVATAR_UNREADABLE,
        details: { avatar: AVATAR_UNREADABLE },
      });
    }

    const me = await t.request("GET", "/api/me/profile", { as: user });
    expect(me.body.avatar).toBe(avatar);
    const served = await t.app.request(avatar, { headers: { cookie: user.cookie } });
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it("refuses a picture wider or higher than it would show, before decoding it", async () => {
    const user = await t.user("investor");
    const wide = await sharp({
      create: { width: AVATAR_MAX_SIDE + 1, height: 1, channels: 3, background: "#2b6cb0" },
    })
      .png()
      .toBuffer();
    expect(await refusal(await put(user, wide))).toMatchObject({ details: { avatar: AVATAR_TOO_MANY_PIXELS } });
  });

  it("still refuses what is no PNG, JPEG or WebP at all", async () => {
    const user = await t.user("investor");
    const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    expect(await refusal(await put(user, gif, "image/gif"))).toMatchObject({
      details: { avatar: "Use a PNG, JPEG or WebP image." },
    });
  });
});
