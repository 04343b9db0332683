package paymenttest

import "github.com/staykit/staykit/payment"

// Intents returns copies of all intents in creation order, authorisations
// lapsed as GetIntent would see them.
func (p *Provider) Intents() []payment.Intent {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]payment.Intent, 0, len(p.order))
	for _, id := range p.order {
		p.lapse(p.intents[id])
		out = append(out, *clone(p.intents[id].intent))
	}
	return out
}

// Intent returns a copy of intent id and whether it exists.
func (p *Provider) Intent(id string) (payment.Intent, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	rec, ok := p.intents[id]
	if !ok {
		return payment.Intent{}, false
	}
	p.lapse(rec)
	return *clone(rec.intent), true
}

// FailedAttempts returns how many payment attempts on intent id were
// declined; 0 for an unknown id.
func (p *Provider) FailedAttempts(id string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if rec, ok := p.intents[id]; ok {
		return rec.failed
	}
	return 0
}
