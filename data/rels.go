package data

// Rels is a column of relation ids (one per edge or adjacency entry). It
// stores one byte per entry while every id is below 256, which covers
// STaRK and every KB with a hand-made schema, and a second uint16 column of
// high bits once an id of 256 or more is appended: three bytes per entry,
// ids up to MaxRelationTypes-1. Widening every entry to a 4-byte id would
// add 3 bytes to each of a graph's adjacency entries (5.25 bytes today,
// with the 4-byte neighbour id and the 2 direction bits): 57% more
// adjacency memory for KBs that never need it.
type Rels struct {
	Lo []uint8  // the low byte of each id
	Hi []uint16 // bits 8-23 of each id; nil while every id is below 256
}

// Len returns the number of entries.
func (r *Rels) Len() int { return len(r.Lo) }

// At returns entry i.
func (r *Rels) At(i int) RelID {
	id := RelID(r.Lo[i])
	if r.Hi != nil {
		id |= RelID(r.Hi[i]) << 8
	}
	return id
}

// Append adds one id; it must be below MaxRelationTypes.
func (r *Rels) Append(id RelID) {
	if id >= MaxRelationTypes {
		panic("data: relation id past MaxRelationTypes")
	}
	if id > 0xff && r.Hi == nil {
		r.Hi = make([]uint16, len(r.Lo), cap(r.Lo))
	}
	r.Lo = append(r.Lo, uint8(id))
	if r.Hi != nil {
		r.Hi = append(r.Hi, uint16(id>>8))
	}
}

// Slice returns entries [a, b); it aliases r.
func (r *Rels) Slice(a, b int) Rels {
	s := Rels{Lo: r.Lo[a:b]}
	if r.Hi != nil {
		s.Hi = r.Hi[a:b]
	}
	return s
}

// MakeRels returns a column of n zero ids, wide enough for ids up to max.
func MakeRels(n int, max RelID) Rels {
	r := Rels{Lo: make([]uint8, n)}
	if max > 0xff {
		r.Hi = make([]uint16, n)
	}
	return r
}

// Set stores id at entry i; the column must be wide enough (MakeRels).
func (r *Rels) Set(i int, id RelID) {
	r.Lo[i] = uint8(id)
	if r.Hi != nil {
		r.Hi[i] = uint16(id >> 8)
	} else if id > 0xff {
		panic("data: relation id past a narrow Rels column")
	}
}

// RelsOf returns a column holding ids (a test and conversion helper).
func RelsOf(ids ...RelID) Rels {
	var r Rels
	for _, id := range ids {
		r.Append(id)
	}
	return r
}

// IDs returns the ids as a plain slice (a copy).
func (r *Rels) IDs() []RelID {
	out := make([]RelID, r.Len())
	for i := range out {
		out[i] = r.At(i)
	}
	return out
}
