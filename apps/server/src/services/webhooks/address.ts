import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// Where a webhook must never go: this host, the private network, link-local (cloud metadata at 169.254.169.254
// and fd00:ec2::254), carrier-grade NAT (100.100.100.200 is a metadata address too), unspecified, multicast
// and reserved ranges.
const forbidden = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  forbidden.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ["fe80::", 10],
  ["fc00::", 7],
  ["ff00::", 8],
  ["100::", 64],
  // Transition forms that carry an IPv4 address a relay may reach: IPv4-translated (::ffff:0:a.b.c.d), 6to4
  // (2002:aabb:ccdd::), Teredo, and local-use NAT64 (64:ff9b:1::/48, where any translation is the network's own);
  // and deprecated site-local. Well-known NAT64 (64:ff9b::/96) and IPv4-mapped forms are judged by the IPv4 inside.
  ["::ffff:0:0:0", 96],
  ["2002::", 16],
  ["2001::", 32],
  ["64:ff9b:1::", 48],
  ["fec0::", 10],
] as const) {
  forbidden.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1];
  const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (!hex) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** True for an address no webhook may reach (unless WEBHOOK_ALLOW_PRIVATE). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, "ipv4");
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner) return forbidden.check(inner, "ipv4");
  return forbidden.check(address, "ipv6");
}

export class TargetRefused extends Error {}

export interface Target {
  url: URL;
  /** The checked address the request connects to: DNS is not asked again, so it cannot be switched. */
  address: string;
  family: 4 | 6;
}

const DNS_TIMEOUT_MS = 5_000;

/** Checks a webhook URL and resolves it to one address it may connect to; throws TargetRefused saying why. */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("The URL is not valid.");
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw new TargetRefused("The URL must use https.");
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("timed out")), DNS_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw new TargetRefused(`The host ${host} could not be resolved.`);
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new TargetRefused(`The host ${host} could not be resolved.`);
  }
  // Every address must be allowed: otherwise the host could name a public and a private one and let the
  // connection pick.
  const bad = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
  if (bad) {
    throw new TargetRefused(
      `The host ${host} resolves to ${bad.address}, a private, loopback, link-local or reserved address.`,
    );
  }
  const chosen = addresses[0];
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
