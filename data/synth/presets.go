package synth

// typeSpec describes one node type of a preset.
type typeSpec struct {
	name      string
	frac      float64 // share of the nodes
	candidate bool
	naming    namer
}

// relSpec describes one relation between two node types. deg is the mean
// number of edges per source node before scaling to a target edge count;
// homophily is the probability that an edge stays within the source's topic.
// mention is the probability that a candidate endpoint's text names the
// other endpoint (how much of the structure leaks into text, as brand names
// do in STaRK's Amazon product documents).
type relSpec struct {
	name       string
	src, dst   string
	deg        float64
	homophily  float64
	mention    float64
	mentionFld string // text field that receives the mention
}

// template is a query family: one or two anchored paths ending at the
// target type, and several phrasings. In a phrasing, {a0} and {a1} are the
// anchors' names and {r} is the textual restriction.
type template struct {
	paths     [][]string // each: anchorType, rel, type, rel, ..., targetType
	phrasings []string
	weight    float64
}

// preset is a STaRK-like data set definition.
type preset struct {
	name       string
	types      []typeSpec
	rels       []relSpec
	fields     []string // text fields
	titleField string   // field that gets a short title ("" = none)
	bodyField  string   // field that gets the long text
	listField  string   // field listing the properties ("" = none)
	noiseField string   // field with extra, partly distracting text ("" = none)
	glue       []string // domain filler words
	templates  []template
	// knobs calibrated so BM25's Hit@1 lands near STaRK's.
	propsPerNode   [2]int  // min, max properties per candidate
	topicPropShare float64 // share of a node's properties drawn from its topic
	distractRate   float64 // expected distractor property mentions per candidate
	twoPropRate    float64 // share of queries restricted by two properties
	bodyWords      [2]int
}

var presets = map[string]*preset{
	"amazon": {
		name: "amazon",
		types: []typeSpec{
			{"product", 0.86, true, nameProduct},
			{"brand", 0.08, false, nameBrand},
			{"category", 0.04, false, nameCategory},
			{"color", 0.02, false, nameColor},
		},
		rels: []relSpec{
			{"also_buy", "product", "product", 2, 0.8, 0, ""},
			{"also_view", "product", "product", 3, 0.7, 0, ""},
			{"has_brand", "product", "brand", 1, 0.9, 0.4, "brand"},
			{"has_category", "product", "category", 1.5, 0.95, 0.15, "description"},
			{"has_color", "product", "color", 1.2, 0.3, 0.2, "feature"},
		},
		fields:     []string{"title", "brand", "description", "feature", "review"},
		titleField: "title", bodyField: "description", listField: "feature", noiseField: "review",
		glue: []string{"great", "quality", "design", "perfect", "everyday", "comfortable", "durable", "easy", "fits",
			"value", "product", "item", "works", "nice", "size", "love", "price", "use", "good", "well"},
		templates: []template{
			{[][]string{{"brand", "has_brand", "product"}}, []string{
				"Looking for {r} products from {a0}.",
				"Which {a0} item is {r}?",
				"I want something {r} made by {a0}, any suggestions?",
			}, 3},
			{[][]string{{"category", "has_category", "product"}}, []string{
				"Recommend a {r} item in the {a0} category.",
				"What {a0} products are {r}?",
			}, 2},
			{[][]string{{"color", "has_color", "product"}, {"brand", "has_brand", "product"}}, []string{
				"Is there a {a0} {r} product by {a1}?",
				"Show me {a1} items in {a0} that are {r}.",
			}, 1},
			{[][]string{{"category", "has_category", "product"}, {"brand", "has_brand", "product"}}, []string{
				"A {r} {a0} product from {a1}, please.",
				"Which {a1} goods in {a0} are {r}?",
			}, 1},
		},
		propsPerNode: [2]int{3, 6}, topicPropShare: 0.75, distractRate: 0.6, twoPropRate: 0.35,
		bodyWords: [2]int{25, 60},
	},
	"mag": {
		name: "mag",
		types: []typeSpec{
			{"author", 0.42, false, namePerson},
			{"institution", 0.03, false, nameInstitution},
			{"field_of_study", 0.07, false, nameField},
			{"paper", 0.48, true, namePaper},
		},
		rels: []relSpec{
			{"writes", "author", "paper", 3, 0.85, 0.22, "abstract"},
			{"affiliated_with", "author", "institution", 1.2, 0.6, 0, ""},
			{"cites", "paper", "paper", 4, 0.8, 0, ""},
			{"has_topic", "paper", "field_of_study", 2, 0.95, 0.35, "abstract"},
		},
		fields:     []string{"title", "abstract", "venue"},
		titleField: "title", bodyField: "abstract", noiseField: "venue",
		glue: []string{"we", "propose", "method", "results", "study", "analysis", "show", "model", "approach",
			"data", "novel", "based", "using", "effects", "new", "performance", "experiments", "evidence", "theory", "framework"},
		templates: []template{
			{[][]string{{"author", "writes", "paper"}}, []string{
				"Papers by {a0} on {r}.",
				"What did {a0} publish about {r}?",
				"Find work of {a0} that studies {r}.",
			}, 3},
			{[][]string{{"institution", "affiliated_with", "author", "writes", "paper"}}, []string{
				"Find papers from authors at {a0} about {r}.",
				"Which publications by researchers of {a0} discuss {r}?",
			}, 2},
			{[][]string{{"field_of_study", "has_topic", "paper"}, {"author", "writes", "paper"}}, []string{
				"Papers in {a0} by {a1} that investigate {r}.",
				"Has {a1} written on {a0} concerning {r}?",
			}, 2},
		},
		propsPerNode: [2]int{3, 6}, topicPropShare: 0.8, distractRate: 0.5, twoPropRate: 0.3,
		bodyWords: [2]int{40, 90},
	},
	"prime": {
		name: "prime",
		types: []typeSpec{
			{"disease", 0.14, true, nameDisease},
			{"gene/protein", 0.30, true, nameGene},
			{"molecular_function", 0.07, true, nameProcess},
			{"drug", 0.10, true, nameDrug},
			{"pathway", 0.04, true, nameProcess},
			{"anatomy", 0.04, true, nameAnatomy},
			{"effect/phenotype", 0.12, true, namePhenotype},
			{"biological_process", 0.12, true, nameProcess},
			{"cellular_component", 0.05, true, nameProcess},
			{"exposure", 0.02, true, nameExposure},
		},
		rels: []relSpec{
			{"ppi", "gene/protein", "gene/protein", 3, 0.6, 0, ""},
			{"carrier", "drug", "gene/protein", 0.3, 0.5, 0, ""},
			{"enzyme", "drug", "gene/protein", 0.5, 0.5, 0, ""},
			{"target", "drug", "gene/protein", 2, 0.7, 0.14, "details"},
			{"transporter", "drug", "gene/protein", 0.3, 0.5, 0, ""},
			{"contraindication", "drug", "disease", 1, 0.4, 0, ""},
			{"indication", "drug", "disease", 1.5, 0.8, 0.14, "details"},
			{"off-label use", "drug", "disease", 0.4, 0.6, 0, ""},
			{"synergistic interaction", "drug", "drug", 1, 0.5, 0, ""},
			{"associated with", "gene/protein", "disease", 1.5, 0.8, 0.14, "details"},
			{"parent-child", "disease", "disease", 1, 0.9, 0, ""},
			{"phenotype absent", "disease", "effect/phenotype", 0.3, 0.5, 0, ""},
			{"phenotype present", "disease", "effect/phenotype", 3, 0.8, 0.15, "details"},
			{"side effect", "drug", "effect/phenotype", 2, 0.5, 0, ""},
			{"interacts with", "gene/protein", "biological_process", 2, 0.8, 0, ""},
			{"linked to", "exposure", "disease", 2, 0.6, 0, ""},
			{"expression present", "anatomy", "gene/protein", 12, 0.5, 0, ""},
			{"expression absent", "anatomy", "gene/protein", 2, 0.5, 0, ""},
		},
		fields:    []string{"details", "source"},
		bodyField: "details", noiseField: "source",
		glue: []string{"associated", "involved", "process", "expression", "clinical", "patients", "observed", "protein",
			"cell", "activity", "regulation", "levels", "response", "function", "reported", "tissue", "signaling", "binding", "human", "type"},
		templates: []template{
			{[][]string{{"disease", "indication", "drug"}}, []string{
				"Which drug is indicated for {a0} and is {r}?",
				"What medication treats {a0} that is {r}?",
			}, 2},
			{[][]string{{"disease", "associated with", "gene/protein"}}, []string{
				"Which genes are associated with {a0} and {r}?",
				"Find a {r} protein linked to {a0}.",
			}, 2},
			{[][]string{{"drug", "target", "gene/protein"}}, []string{
				"What proteins does {a0} target that are {r}?",
				"Which {r} gene is a target of {a0}?",
			}, 2},
			{[][]string{{"disease", "phenotype present", "effect/phenotype"}}, []string{
				"Which symptoms of {a0} are {r}?",
				"What {r} phenotype is present in {a0}?",
			}, 2},
			{[][]string{{"drug", "target", "gene/protein"}, {"anatomy", "expression present", "gene/protein"}}, []string{
				"Which genes targeted by {a0} are expressed in {a1} and {r}?",
				"A {r} protein expressed in the {a1} that {a0} acts on?",
			}, 1},
		},
		propsPerNode: [2]int{3, 6}, topicPropShare: 0.8, distractRate: 0.8, twoPropRate: 0.25,
		bodyWords: [2]int{30, 70},
	},
}
