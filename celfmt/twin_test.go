package celfmt

// meteredTwin returns a formatter like f that runs every evaluation
// metered, with a pool of its own, for tests and benchmarks that compare
// the two paths.
func meteredTwin(f *Formatter) *Formatter {
	return &Formatter{
		Entry: f.Entry, optional: f.optional, lets: f.lets, letNames: f.letNames, preview: f.preview,
		unwrap: f.unwrap, tierExpr: f.tierExpr, tier: f.tier,
		opts: f.opts, unmetered: f.unmetered, unwrapUnmetered: f.unwrapUnmetered, tierUnmetered: f.tierUnmetered,
		checked: f.checked, metered: true,
	}
}
