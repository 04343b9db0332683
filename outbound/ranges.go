package outbound

import (
	"net/netip"
)

// Range is a block of addresses that is not the public internet: an entry
// of the IANA special-purpose address registries, or one of the blocks
// outside them that no server of a channel or a receiver can be on.
type Range struct {
	Prefix netip.Prefix
	// Name is the registry's name of the block, RFC its defining
	// document(s).
	Name, RFC string
	// Never: no policy reaches it, not even for an allowed host (this
	// network, broadcast, multicast): a connection there is a mistake or
	// an attack.
	Never bool
}

func r(prefix, name, rfc string) Range {
	return Range{Prefix: netip.MustParsePrefix(prefix), Name: name, RFC: rfc}
}

func never(prefix, name, rfc string) Range {
	rg := r(prefix, name, rfc)
	rg.Never = true
	return rg
}

// The IANA IPv4 Special-Purpose Address Registry
// (https://www.iana.org/assignments/iana-ipv4-special-registry/), every
// entry, including those the registry marks globally reachable (anycast
// relays, AS112): none of them is where a calendar or a webhook receiver
// lives. Multicast (224.0.0.0/4, RFC 5771) is in a registry of its own and
// is added here.
var ipv4Special = []Range{
	never("0.0.0.0/8", `"This network"`, "RFC 791 §3.2"),
	never("0.0.0.0/32", `"This host on this network"`, "RFC 1122 §3.2.1.3"),
	r("10.0.0.0/8", "Private-Use", "RFC 1918"),
	r("100.64.0.0/10", "Shared Address Space (carrier-grade NAT; cloud metadata on some providers)", "RFC 6598"),
	r("127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3"),
	r("169.254.0.0/16", "Link Local (cloud metadata at 169.254.169.254)", "RFC 3927"),
	r("172.16.0.0/12", "Private-Use", "RFC 1918"),
	r("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890 §2.1"),
	r("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335"),
	r("192.0.0.8/32", "IPv4 dummy address", "RFC 7600"),
	r("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723"),
	r("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155"),
	r("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2"),
	r("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2"),
	r("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737"),
	r("192.31.196.0/24", "AS112-v4", "RFC 7535"),
	r("192.52.193.0/24", "AMT", "RFC 7450"),
	r("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526"),
	r("192.88.99.2/32", "6a44-relay anycast address", "RFC 6751"),
	r("192.168.0.0/16", "Private-Use", "RFC 1918"),
	r("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534"),
	r("198.18.0.0/15", "Benchmarking", "RFC 2544"),
	r("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737"),
	r("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737"),
	never("224.0.0.0/4", "Multicast", "RFC 5771"),
	r("240.0.0.0/4", "Reserved", "RFC 1112 §4"),
	never("255.255.255.255/32", "Limited Broadcast", "RFC 8190, RFC 919 §7"),
}

// The IANA IPv6 Special-Purpose Address Registry
// (https://www.iana.org/assignments/iana-ipv6-special-registry/), every
// entry. Two are read through rather than refused whole: an IPv4-mapped
// address (::ffff:0:0/96) is the IPv4 address it carries, and so is one of
// the NAT64 well-known prefix (64:ff9b::/96), which an IPv6-only host
// with DNS64 uses for every IPv4 site: its embedded address is judged as
// IPv4 (so 64:ff9b::7f00:1, loopback through the translator, is refused).
// Outside 2000::/3, the only block IANA allocates as global unicast
// (https://www.iana.org/assignments/ipv6-address-space/), nothing is
// public: that takes care of ::/8 (::127.0.0.1-style IPv4-compatible
// spellings), fc00::/7, fe80::/10, ff00::/8 and the rest.
var ipv6Special = []Range{
	never("::/128", "Unspecified Address", "RFC 4291"),
	r("::1/128", "Loopback Address", "RFC 4291"),
	r("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291"),
	r("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052"),
	r("64:ff9b:1::/48", "IPv4-IPv6 Translat. (local use)", "RFC 8215"),
	r("100::/64", "Discard-Only Address Block", "RFC 6666"),
	r("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780"),
	r("2001::/23", "IETF Protocol Assignments", "RFC 2928"),
	r("2001::/32", "TEREDO", "RFC 4380, RFC 8190"),
	r("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723"),
	r("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155"),
	r("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665"),
	r("2001:2::/48", "Benchmarking", "RFC 5180, RFC Errata 1752"),
	r("2001:3::/32", "AMT", "RFC 7450"),
	r("2001:4:112::/48", "AS112-v6", "RFC 7535"),
	r("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843"),
	r("2001:20::/28", "ORCHIDv2", "RFC 7343"),
	r("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374"),
	r("2001:db8::/32", "Documentation", "RFC 3849"),
	r("2002::/16", "6to4", "RFC 3056"),
	r("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534"),
	r("3fff::/20", "Documentation", "RFC 9637"),
	r("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602"),
	r("fc00::/7", "Unique-Local", "RFC 4193, RFC 8190"),
	r("fe80::/10", "Link-Local Unicast", "RFC 4291"),
	never("ff00::/8", "Multicast", "RFC 4291"),
}

var (
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	notGlobal6     = Range{Prefix: netip.MustParsePrefix("::/0"), Name: "not IPv6 global unicast (outside 2000::/3)",
		RFC: "RFC 4291 §2.4, IANA IPv6 Address Space"}
)

// Special returns the special-purpose range ip is in, the most specific
// one when several hold it; ok is false for an address of the public
// internet. An IPv4-mapped address is judged as its IPv4 address, and so
// is one of the NAT64 prefix 64:ff9b::/96 (a NAT64 of a special address
// is reported as that address's range). An invalid address is special.
func Special(ip netip.Addr) (Range, bool) {
	ip = ip.WithZone("")
	switch {
	case !ip.IsValid():
		return Range{Name: "invalid address", Never: true}, true
	case ip.Is4In6():
		return Special(ip.Unmap())
	case ip.Is6() && nat64.Contains(ip):
		b := ip.As16()
		return Special(netip.AddrFrom4([4]byte(b[12:])))
	case ip.Is4():
		return mostSpecific(ipv4Special, ip, Range{})
	case !globalUnicast6.Contains(ip):
		return mostSpecific(ipv6Special, ip, notGlobal6)
	}
	return mostSpecific(ipv6Special, ip, Range{})
}

// mostSpecific returns the longest prefix of list holding ip, else
// fallback when it is set.
func mostSpecific(list []Range, ip netip.Addr, fallback Range) (Range, bool) {
	best, found := fallback, fallback.Prefix.IsValid()
	for _, rg := range list {
		if rg.Prefix.Contains(ip) && (!found || rg.Prefix.Bits() > best.Prefix.Bits()) {
			best, found = rg, true
		}
	}
	// A "never" block anywhere above the match wins: 0.0.0.0/32 is
	// in 0.0.0.0/8.
	for _, rg := range list {
		if rg.Never && rg.Prefix.Contains(ip) {
			best.Never = true
		}
	}
	return best, found
}
