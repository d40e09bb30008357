package train

import "math"

// Schedule is linear warmup followed by cosine decay to zero.
type Schedule struct {
	Base   float64 // peak learning rate
	Warmup int     // warmup steps
	Total  int     // total steps
}

// LR returns the learning rate of step (0-based): Base·(step+1)/Warmup during
// warmup, then Base·½(1 + cos(π·t)) with t going from 0 to 1 over the rest.
func (s Schedule) LR(step int) float64 {
	if step < s.Warmup {
		return s.Base * float64(step+1) / float64(s.Warmup)
	}
	rest := s.Total - s.Warmup
	if rest <= 0 {
		return s.Base
	}
	t := float64(step-s.Warmup) / float64(rest)
	if t > 1 {
		t = 1
	}
	return s.Base * 0.5 * (1 + math.Cos(math.Pi*t))
}
