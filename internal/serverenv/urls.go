package serverenv

import (
	"net"
	"strconv"
	"strings"
)

// URLs returns the server's public URL (c.PublicURL, else http://{the
// listen address addr}, with localhost for an unspecified address) and
// the origins browsers may call the API from: the public URL, the listen
// address, and its localhost and 127.0.0.1 twins on a loopback address.
func (c Config) URLs(addr net.Addr) (publicURL string, origins []string) {
	host, port := "localhost", ""
	if ta, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
		if !ta.IP.IsUnspecified() {
			host = ta.IP.String()
		}
	}
	listen := "http://" + net.JoinHostPort(host, port)
	publicURL = c.PublicURL
	if publicURL == "" {
		publicURL = listen
	}
	origins = []string{publicURL}
	if listen != publicURL {
		origins = append(origins, listen)
	}
	if isLoopback(host) {
		for _, h := range []string{"localhost", "127.0.0.1"} {
			if o := "http://" + net.JoinHostPort(h, port); o != publicURL && o != listen {
				origins = append(origins, o)
			}
		}
	}
	return publicURL, origins
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1" || strings.HasPrefix(host, "127.")
}
