package outbound

import (
	"net/netip"
	"testing"
)

// lastOf is the last address of an IPv4 prefix.
func lastOf(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().As4()
	host := uint32(1)<<(32-p.Bits()) - 1
	n := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]) | host
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
}

// TestEveryRegistryEntryIsSpecial: the first address of every range
// listed, and the last of every IPv4 one, is special.
func TestEveryRegistryEntryIsSpecial(t *testing.T) {
	for _, list := range [][]Range{ipv4Special, ipv6Special} {
		for _, rg := range list {
			addrs := []netip.Addr{rg.Prefix.Masked().Addr()}
			if rg.Prefix.Addr().Is4() {
				addrs = append(addrs, lastOf(rg.Prefix))
			}
			for _, a := range addrs {
				if got, special := Special(a); !special {
					t.Errorf("%s, in %s (%s): Special = %+v, false", a, rg.Prefix, rg.Name, got)
				}
			}
		}
	}
}
