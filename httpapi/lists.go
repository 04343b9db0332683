package httpapi

import "sync"

// The properties list is built and encoded once per change of the
// organisation's catalogue, not per request (issue #31): its bytes and
// their ETag are kept per organisation and page asked (?limit=,
// ?cursor=) for the version booking.OrgService.PropertiesVersion names —
// the read model's number of the organisation's list, today's date and
// the organisation's fields a listing shows — and built again when it
// differs. Without a read model that numbers its lists, every request
// builds its list. The list does not depend on the locale.

// maxListPages bounds the pages kept per organisation and version: a
// crawler walking odd limits makes the others build theirs.
const maxListPages = 32

// lists keeps encoded properties lists. The zero lists is ready.
type lists struct {
	mu   sync.Mutex
	orgs map[int64]*orgLists
}

// orgLists are an organisation's encoded lists of one version.
type orgLists struct {
	version string
	pages   map[propertyPage]*keptBody
}

// get returns the list of page of organisation org at version, if kept.
func (l *lists) get(org int64, version string, page propertyPage) (*keptBody, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	o := l.orgs[org]
	if o == nil || o.version != version {
		return nil, false
	}
	b, ok := o.pages[page]
	return b, ok
}

// put keeps the list of page of organisation org at version, forgetting
// the lists of another version.
func (l *lists) put(org int64, version string, page propertyPage, b *keptBody) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.orgs == nil {
		l.orgs = map[int64]*orgLists{}
	}
	o := l.orgs[org]
	if o == nil || o.version != version {
		o = &orgLists{version: version, pages: map[propertyPage]*keptBody{}}
		l.orgs[org] = o
	}
	if len(o.pages) < maxListPages {
		o.pages[page] = b
	}
}
