package celrt

// Slot names the slot of a formatter that a function of generated code
// evaluates. The function that computes a formatter's lets takes it, and
// computes the lets that slot reads and no other.
type Slot uint8

// The slots of a formatter.
const (
	SlotPreview Slot = iota
	SlotUnwrap
	SlotTier
	SlotRow
	SlotResult
	SlotErrorLine
	SlotExpand
	SlotTitle
)
